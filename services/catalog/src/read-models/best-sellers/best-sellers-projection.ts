import { z } from 'zod';
import { type UncheckedEvents } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { EventConsumer } from '@shop/shared/bus/types';

export const BEST_SELLERS_PROJECTION = 'catalog.best_sellers';

const StockCommitted = z.object({ productId: z.string().min(1), quantity: z.number().int().min(0) });
const StockReleased = StockCommitted.extend({ returned: z.enum(['sold', 'held']).optional() });

const tables = { sold: table('catalog.best_sellers', { key: ['product_id'], columns: ['product_id', 'units_sold'] }) };

/**
 * catalog.best_sellers: units sold per product, all sizes together, from StockCommitted (a paid hold). Each
 * sale is one event the bus applies once, and a sum does not depend on the order in which the stock streams
 * arrive. The list query joins catalog.products, so deleted products drop out there.
 */
export const bestSellersReadModel = defineReadModel<UncheckedEvents<'StockCommitted' | 'StockReleased'>, typeof tables>({
  name: BEST_SELLERS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    StockCommitted(data, { sold }) {
      const { productId, quantity } = StockCommitted.parse(data);
      if (!sold.add(productId, 'units_sold', quantity)) sold.insert({ product_id: productId, units_sold: quantity });
    },
    // A cancelled order's sale returned (StockReleased of sold units): no longer sold.
    StockReleased(data, { sold }) {
      const { productId, quantity, returned } = StockReleased.parse(data);
      if (returned === 'sold') sold.add(productId, 'units_sold', -quantity);
    },
  },
});

export function bestSellersProjection(): EventConsumer {
  return readModelConsumer(bestSellersReadModel);
}
