import type { EventConsumer } from '@shop/shared/bus/types';
import type { StockEvent } from '../../stock/events.ts';

export const STOCK_HOLDS_PROJECTION = 'catalog.stock-holds';

/** catalog.stock_holds: the holds still live, with when the catalog gives them back if nobody settles them. */
export const stockHoldsProjection: EventConsumer = {
  name: STOCK_HOLDS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  eventTypes: ['StockReserved', 'StockReleased', 'StockCommitted'],
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as StockEvent;
    switch (e.type) {
      case 'StockReserved':
        if (!e.data.expiresAt) return;
        await tx.query(
          `INSERT INTO catalog.stock_holds (stream_id, hold_id, product_id, size, quantity, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (stream_id, hold_id) DO UPDATE
           SET quantity = EXCLUDED.quantity, expires_at = EXCLUDED.expires_at`,
          [event.streamId, e.data.reservationId, e.data.productId, e.data.size, e.data.quantity, e.data.expiresAt],
        );
        return;
      case 'StockReleased':
      case 'StockCommitted':
        await tx.query(`DELETE FROM catalog.stock_holds WHERE stream_id = $1 AND hold_id = $2`, [
          event.streamId,
          e.data.reservationId,
        ]);
        return;
      case 'StockLevelSet':
        return;
    }
  },
};
