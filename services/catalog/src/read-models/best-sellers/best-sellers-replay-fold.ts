import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { UncheckedEvents } from '@shop/shared/bus/projection';

/** The replay's in-memory fold of catalog.best_sellers (best-sellers-projection.ts): units sold per product. */
export function bestSellersReplayFold(): ReplayFold {
  const sold = new KeyedRows('catalog.best_sellers', ['product_id', 'units_sold']);
  return defineReplayFold<UncheckedEvents<'StockCommitted'>>({
    on: {
      StockCommitted(data) {
        const { productId, quantity } = data as { productId: string; quantity: number };
        if (typeof productId !== 'string' || !productId || !Number.isInteger(quantity) || quantity < 0)
          throw new Error(`StockCommitted without a product id and a quantity: ${JSON.stringify(data)}`);
        if (!sold.insert(productId, [productId, quantity])) sold.add(productId, 'units_sold', quantity);
      },
    },
    tables: [sold],
  });
}
