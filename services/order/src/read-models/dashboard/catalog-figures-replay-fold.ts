import type { ReplayFold } from '@shop/shared/replay/fold';

/**
 * The replay's in-memory fold of orders.dashboard_catalog (catalog-figures-projection.ts): the rows its
 * handle() writes into orders.dashboard_products and orders.dashboard_stock_levels. (The dashboard
 * announcements of handle() are pushes, not rows: a replay announces nothing.)
 */

interface Product {
  size_labels: readonly string[];
  units: number;
  deleted: boolean;
}
interface StockData {
  productId: string;
  size?: string | null;
  available?: number;
  quantity?: number;
  sizeLabels?: string[];
}

export function catalogFiguresReplayFold(): ReplayFold {
  const products = new Map<string, Product>();
  const levels = new Map<string, Map<string, number>>();
  const levelsOf = (productId: string) => {
    let m = levels.get(productId);
    if (!m) levels.set(productId, (m = new Map()));
    return m;
  };
  // refreshUnits: greatest(0, general) + sum(greatest(0, available)) of the offered sizes; never a tombstone.
  const refreshUnits = (productId: string) => {
    const p = products.get(productId);
    if (!p || p.deleted) return;
    const stock = levels.get(productId);
    const offered = new Set(p.size_labels);
    let sum = 0;
    if (stock) for (const [size, available] of stock) if (offered.has(size)) sum += Math.max(0, available);
    p.units = Math.max(0, stock?.get('') ?? 0) + sum;
  };
  const tombstoned = (productId: string) => products.get(productId)?.deleted === true;

  return {
    apply(event) {
      const d = event.data as StockData;
      switch (event.type) {
        case 'ProductCreated':
          if (!products.has(d.productId))
            products.set(d.productId, { size_labels: d.sizeLabels!, units: 0, deleted: false });
          refreshUnits(d.productId);
          return;
        case 'ProductDetailsChanged': {
          if (d.sizeLabels === undefined) return;
          const p = products.get(d.productId);
          if (p && !p.deleted) p.size_labels = d.sizeLabels;
          refreshUnits(d.productId);
          return;
        }
        case 'ProductDeleted': {
          const p = products.get(d.productId);
          if (!p) products.set(d.productId, { size_labels: [], units: 0, deleted: true });
          else if (!p.deleted) {
            p.deleted = true;
            p.units = 0;
          }
          levels.delete(d.productId);
          return;
        }
        case 'StockLevelSet':
          if (!tombstoned(d.productId)) levelsOf(d.productId).set(d.size ?? '', d.available!);
          refreshUnits(d.productId);
          return;
        case 'StockReserved':
        case 'StockReleased': {
          if (!tombstoned(d.productId)) {
            const m = levelsOf(d.productId);
            const size = d.size ?? '';
            m.set(size, (m.get(size) ?? 0) + (event.type === 'StockReserved' ? -d.quantity! : d.quantity!));
          }
          refreshUnits(d.productId);
          return;
        }
      }
    },
    tables() {
      const stockRows: unknown[][] = [];
      for (const [productId, m] of levels)
        for (const [size, available] of m) stockRows.push([productId, size, available]);
      return [
        {
          table: 'orders.dashboard_products',
          columns: ['product_id', 'size_labels', 'units', 'deleted'],
          rows: [...products].map(([id, p]) => [id, p.size_labels, p.units, p.deleted]),
        },
        { table: 'orders.dashboard_stock_levels', columns: ['product_id', 'size', 'available'], rows: stockRows },
      ];
    },
  };
}
