import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { StockEvent } from '../../stock/events.ts';

export const STOCK_HOLDS_PROJECTION = 'catalog.stock-holds';

const tables = {
  holds: table('catalog.stock_holds', {
    key: ['stream_id', 'hold_id'],
    columns: ['stream_id', 'hold_id', 'product_id', 'size', 'quantity', 'expires_at'],
  }),
};

/** catalog.stock_holds: the holds still live, with when the catalog gives them back if nobody settles them. */
export const stockHoldsReadModel = defineReadModel<StockEvent, typeof tables>({
  name: STOCK_HOLDS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    StockReserved(d, { holds }, event) {
      if (!d.expiresAt) return;
      const key = [event.streamId, d.reservationId];
      if (!holds.update(key, { quantity: d.quantity, expires_at: d.expiresAt }))
        holds.insert({
          stream_id: event.streamId,
          hold_id: d.reservationId,
          product_id: d.productId,
          size: d.size,
          quantity: d.quantity,
          expires_at: d.expiresAt,
        });
    },
    // A hold settled (released or committed): it is no longer live.
    StockReleased(d, { holds }, event) {
      holds.delete([event.streamId, d.reservationId]);
    },
    StockCommitted(d, { holds }, event) {
      holds.delete([event.streamId, d.reservationId]);
    },
  },
});

export const stockHoldsProjection = readModelConsumer(stockHoldsReadModel);
