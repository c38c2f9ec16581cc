import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import { StockLevels } from '@shop/shared/replay/stock-levels';
import type { CatalogFact } from './catalog-figures-projection.ts';

/**
 * The replay's in-memory fold of orders.dashboard_catalog (catalog-figures-projection.ts): the rows its
 * handle() writes into orders.dashboard_products and orders.dashboard_stock_levels. (The dashboard
 * announcements of handle() are pushes, not rows: a replay announces nothing.)
 */
export function catalogFiguresReplayFold(): ReplayFold {
  const products = new KeyedRows('orders.dashboard_products', ['product_id', 'size_labels', 'units', 'deleted']);
  const levels = new StockLevels('orders.dashboard_stock_levels');
  const tombstoned = (productId: string) => products.get(productId, 'deleted') === true;
  // refreshUnits: as catalog.products counts its quantity; never a tombstone.
  const refreshUnits = (productId: string) => {
    if (!products.has(productId) || tombstoned(productId)) return;
    const labels = products.get(productId, 'size_labels') as readonly string[];
    products.update(productId, { units: levels.units(productId, labels) });
  };
  const moveHeldUnits = (d: { productId: string; size: string | null }, delta: number) => {
    if (!tombstoned(d.productId)) levels.add(d.productId, d.size ?? '', delta);
    refreshUnits(d.productId);
  };

  return defineReplayFold<CatalogFact>({
    on: {
      ProductCreated(d) {
        products.insert(d.productId, [d.productId, d.sizeLabels, 0, false]);
        refreshUnits(d.productId);
      },
      ProductDetailsChanged(d) {
        if (d.sizeLabels === undefined) return;
        if (!tombstoned(d.productId)) products.update(d.productId, { size_labels: d.sizeLabels });
        refreshUnits(d.productId);
      },
      ProductDeleted(d) {
        if (!products.insert(d.productId, [d.productId, [], 0, true]))
          products.update(d.productId, { deleted: true, units: 0 });
        levels.delete(d.productId);
      },
      StockLevelSet(d) {
        if (!tombstoned(d.productId)) levels.set(d.productId, d.size ?? '', d.available);
        refreshUnits(d.productId);
      },
      StockReserved: (d) => moveHeldUnits(d, -d.quantity),
      StockReleased: (d) => moveHeldUnits(d, d.quantity),
    },
    tables: [products, levels],
  });
}
