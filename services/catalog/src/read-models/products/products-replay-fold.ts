import type { ReplayFold } from '@shop/shared/replay/fold';
import { greatestTime } from '@shop/shared/replay/fold';
import type { ProductEvent } from '../../product/events.ts';
import type { StockEvent } from '../../stock/events.ts';
import { DETAIL_COLUMNS } from './products-projection.ts';

/**
 * The replay's in-memory fold of catalog.products (products-projection.ts): the same rows its handle() writes
 * into catalog.products and catalog.stock_levels, without a query per event.
 */

const PRODUCT_COLUMNS = [
  'id',
  'name',
  'price_paise',
  'description',
  'category',
  'size',
  'color',
  'brand',
  'material',
  'image',
  'size_labels',
  'size_quantities',
  'quantity',
  'is_delisted',
  'created_at',
  'updated_at',
] as const;
type Row = Record<(typeof PRODUCT_COLUMNS)[number], unknown>;

export function productsReplayFold(): ReplayFold {
  const products = new Map<string, Row>();
  /** product id → size ('' for the general stock) → available. */
  const levels = new Map<string, Map<string, number>>();
  const levelsOf = (productId: string) => {
    let m = levels.get(productId);
    if (!m) levels.set(productId, (m = new Map()));
    return m;
  };

  // refreshStock: quantity = greatest(0, general) + sum(greatest(0, available)) of the offered sizes held;
  // size_quantities = json_object_agg(label, coalesce(available, 0) ORDER BY ordinality), else '{}'.
  const refreshStock = (productId: string, at: unknown) => {
    const p = products.get(productId);
    if (!p) return;
    const stock = levels.get(productId);
    const labels = (p.size_labels as string[] | null) ?? [];
    const offered = new Set(labels);
    let sum = 0;
    if (stock) for (const [size, available] of stock) if (offered.has(size)) sum += Math.max(0, available);
    p.quantity = Math.max(0, stock?.get('') ?? 0) + sum;
    p.size_quantities = labels.length
      ? `{ ${labels.map((l) => `${JSON.stringify(l)} : ${stock?.get(l) ?? 0}`).join(', ')} }`
      : '{}';
    p.updated_at = greatestTime(p.updated_at as string, at as string);
  };

  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as ProductEvent | StockEvent;
      switch (e.type) {
        case 'ProductCreated': {
          const d = e.data;
          if (!products.has(d.productId))
            products.set(d.productId, {
              id: d.productId,
              name: d.name,
              price_paise: d.pricePaise,
              description: d.description,
              category: d.category,
              size: d.size,
              color: d.color,
              brand: d.brand,
              material: d.material,
              image: d.image,
              size_labels: d.sizeLabels,
              size_quantities: '{}',
              quantity: 0,
              is_delisted: false,
              created_at: d.createdAt,
              updated_at: d.createdAt,
            });
          refreshStock(d.productId, d.createdAt);
          return;
        }
        case 'ProductDetailsChanged': {
          const { productId, changedAt, ...changes } = e.data;
          const entries = Object.entries(changes).filter(([k]) => k in DETAIL_COLUMNS);
          const p = products.get(productId);
          if (entries.length && p) {
            for (const [k, v] of entries) p[DETAIL_COLUMNS[k] as keyof Row] = v;
            p.updated_at = changedAt;
          }
          if ('sizeLabels' in changes) refreshStock(productId, changedAt);
          return;
        }
        case 'ProductDelisted':
        case 'ProductRelisted': {
          const p = products.get(e.data.productId);
          if (p) {
            p.is_delisted = e.type === 'ProductDelisted';
            p.updated_at = e.data.at;
          }
          return;
        }
        case 'ProductDeleted':
          products.delete(e.data.productId);
          levels.delete(e.data.productId);
          return;
        case 'StockLevelSet': {
          const d = e.data;
          levelsOf(d.productId).set(d.size ?? '', d.available);
          refreshStock(d.productId, d.at);
          return;
        }
        case 'StockReserved':
        case 'StockReleased': {
          const d = e.data;
          const delta = e.type === 'StockReserved' ? -d.quantity : d.quantity;
          const m = levelsOf(d.productId);
          const size = d.size ?? '';
          m.set(size, (m.get(size) ?? 0) + delta);
          refreshStock(d.productId, d.at);
          return;
        }
        case 'StockCommitted':
          return;
      }
    },
    tables() {
      const stockRows: unknown[][] = [];
      for (const [productId, m] of levels)
        for (const [size, available] of m) stockRows.push([productId, size, available]);
      return [
        {
          table: 'catalog.products',
          columns: PRODUCT_COLUMNS,
          rows: [...products.values()].map((p) => PRODUCT_COLUMNS.map((c) => p[c])),
        },
        { table: 'catalog.stock_levels', columns: ['product_id', 'size', 'available'], rows: stockRows },
      ];
    },
  };
}
