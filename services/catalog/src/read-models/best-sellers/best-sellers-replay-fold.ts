import type { ReplayFold } from '@shop/shared/replay/fold';

/** The replay's in-memory fold of catalog.best_sellers (best-sellers-projection.ts): units sold per product. */
export function bestSellersReplayFold(): ReplayFold {
  const sold = new Map<string, number>();
  return {
    apply(event) {
      const { productId, quantity } = event.data as { productId: string; quantity: number };
      if (typeof productId !== 'string' || !productId || !Number.isInteger(quantity) || quantity < 0)
        throw new Error(`StockCommitted without a product id and a quantity: ${JSON.stringify(event.data)}`);
      sold.set(productId, (sold.get(productId) ?? 0) + quantity);
    },
    tables: () => [
      { table: 'catalog.best_sellers', columns: ['product_id', 'units_sold'], rows: [...sold].map(([p, n]) => [p, n]) },
    ],
  };
}
