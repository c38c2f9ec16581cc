import type { ReplayFold } from '@shop/shared/replay/fold';
import type { StockEvent } from '../../stock/events.ts';

/** The replay's in-memory fold of catalog.stock-holds (stock-holds-projection.ts): catalog.stock_holds. */
export function stockHoldsReplayFold(): ReplayFold {
  /** `${stream_id}\u0000${hold_id}` → row (stream_id, hold_id, product_id, size, quantity, expires_at). */
  const holds = new Map<string, unknown[]>();
  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as StockEvent;
      switch (e.type) {
        case 'StockReserved': {
          if (!e.data.expiresAt) return;
          const key = `${event.streamId}\u0000${e.data.reservationId}`;
          const row = holds.get(key);
          if (row) {
            row[4] = e.data.quantity;
            row[5] = e.data.expiresAt;
          } else
            holds.set(key, [
              event.streamId,
              e.data.reservationId,
              e.data.productId,
              e.data.size,
              e.data.quantity,
              e.data.expiresAt,
            ]);
          return;
        }
        case 'StockReleased':
        case 'StockCommitted':
          holds.delete(`${event.streamId}\u0000${e.data.reservationId}`);
          return;
        case 'StockLevelSet':
          return;
      }
    },
    tables: () => [
      {
        table: 'catalog.stock_holds',
        columns: ['stream_id', 'hold_id', 'product_id', 'size', 'quantity', 'expires_at'],
        rows: holds.values(),
      },
    ],
  };
}
