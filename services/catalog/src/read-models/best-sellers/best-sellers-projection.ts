import { z } from 'zod';
import { defineProjection, type UncheckedEvents } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';

export const BEST_SELLERS_PROJECTION = 'catalog.best_sellers';

const StockCommitted = z.object({ productId: z.string().min(1), quantity: z.number().int().min(0) });

/**
 * catalog.best_sellers: units sold per product, all sizes together, from StockCommitted (a paid hold). Each
 * sale is one event the bus applies once, and a sum does not depend on the order in which the stock streams
 * arrive. The list query joins catalog.products, so deleted products drop out there.
 */
export function bestSellersProjection(): EventConsumer {
  return defineProjection<UncheckedEvents<'StockCommitted'>>({
    name: BEST_SELLERS_PROJECTION,
    schema: 'catalog',
    sources: ['catalog'],
    on: {
      async StockCommitted(data, tx) {
        const { productId, quantity } = StockCommitted.parse(data);
        await tx.query(
          `INSERT INTO catalog.best_sellers AS b (product_id, units_sold) VALUES ($1, $2)
           ON CONFLICT (product_id) DO UPDATE SET units_sold = b.units_sold + EXCLUDED.units_sold`,
          [productId, quantity],
        );
      },
    },
  });
}
