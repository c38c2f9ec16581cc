import { defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { StockEvent } from '../../stock/events.ts';

export const STOCK_HOLDS_PROJECTION = 'catalog.stock-holds';

/** A hold settled (released or committed): it is no longer live. */
const settle = (tx: Parameters<EventConsumer['handle']>[1], streamId: string, holdId: string) =>
  tx.query(`DELETE FROM catalog.stock_holds WHERE stream_id = $1 AND hold_id = $2`, [streamId, holdId]);

/** catalog.stock_holds: the holds still live, with when the catalog gives them back if nobody settles them. */
export const stockHoldsProjection = defineProjection<StockEvent>({
  name: STOCK_HOLDS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  on: {
    async StockReserved(d, tx, event) {
      if (!d.expiresAt) return;
      await tx.query(
        `INSERT INTO catalog.stock_holds (stream_id, hold_id, product_id, size, quantity, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (stream_id, hold_id) DO UPDATE
         SET quantity = EXCLUDED.quantity, expires_at = EXCLUDED.expires_at`,
        [event.streamId, d.reservationId, d.productId, d.size, d.quantity, d.expiresAt],
      );
    },
    async StockReleased(d, tx, event) {
      await settle(tx, event.streamId, d.reservationId);
    },
    async StockCommitted(d, tx, event) {
      await settle(tx, event.streamId, d.reservationId);
    },
  },
});
