import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { StockEvent } from '../../stock/events.ts';

/** The replay's in-memory fold of catalog.stock-holds (stock-holds-projection.ts): catalog.stock_holds. */
export function stockHoldsReplayFold(): ReplayFold {
  const holds = new KeyedRows('catalog.stock_holds', [
    'stream_id',
    'hold_id',
    'product_id',
    'size',
    'quantity',
    'expires_at',
  ]);
  /** The primary key (stream_id, hold_id). */
  const key = (streamId: string, holdId: string) => `${streamId}\u0000${holdId}`;
  return defineReplayFold<StockEvent>({
    on: {
      StockReserved(d, event) {
        if (!d.expiresAt) return;
        const k = key(event.streamId, d.reservationId);
        if (!holds.update(k, { quantity: d.quantity, expires_at: d.expiresAt }))
          holds.insert(k, [event.streamId, d.reservationId, d.productId, d.size, d.quantity, d.expiresAt]);
      },
      StockReleased(d, event) {
        holds.delete(key(event.streamId, d.reservationId));
      },
      StockCommitted(d, event) {
        holds.delete(key(event.streamId, d.reservationId));
      },
    },
    tables: [holds],
  });
}
