import { z } from 'zod';
import { type UncheckedEvents } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer, type RowsOf } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import { announceFigures, FIGURE_CHANGED, type FigureChanged } from '../../push/dashboard-changes.ts';
import { unitsOnSale } from '@shop/catalog/client';

export const CATALOG_FIGURES_PROJECTION = 'orders.dashboard_catalog';

// Catalog events as this service relies on them: checked, not trusted (only the fields used here).
const id = z.string().min(1);
const count = z.number().int();
const ProductCreated = z.object({ productId: id, sizeLabels: z.array(z.string()) });
const ProductDetailsChanged = z.object({ productId: id, sizeLabels: z.array(z.string()).optional() });
const ProductDeleted = z.object({ productId: id });
const StockLevelSet = z.object({ productId: id, size: z.string().nullable(), available: count });
const StockMoved = z.object({ productId: id, size: z.string().nullable(), quantity: count.min(0) });

/** The catalog events this read model handles, with their data as the schemas above check it. */
export type CatalogFact =
  | { type: 'ProductCreated'; data: z.infer<typeof ProductCreated> }
  | { type: 'ProductDetailsChanged'; data: z.infer<typeof ProductDetailsChanged> }
  | { type: 'ProductDeleted'; data: z.infer<typeof ProductDeleted> }
  | { type: 'StockLevelSet'; data: z.infer<typeof StockLevelSet> }
  | { type: 'StockReserved'; data: z.infer<typeof StockMoved> }
  | { type: 'StockReleased'; data: z.infer<typeof StockMoved> };

/** Which dashboard figure a product's units put it in (low stock is 1-5 units). */
const stockFigure = (units: number) => (units <= 0 ? 'out' : units <= 5 ? 'low' : 'in');

const tables = {
  products: table('orders.dashboard_products', {
    key: ['product_id'],
    columns: ['product_id', 'size_labels', 'units', 'deleted'],
  }),
  levels: table('orders.dashboard_stock_levels', {
    key: ['product_id', 'size'],
    columns: ['product_id', 'size', 'available'],
  }),
};
type Rows = RowsOf<typeof tables>;

const tombstoned = ({ products }: Rows, productId: string) => products.get(productId)?.deleted === true;

/**
 * Recomputes a product's units. Answers whether its figure moved (to another of in stock, low and out);
 * never for an unknown or deleted product.
 */
function refreshUnits(rows: Rows, productId: string): FigureChanged | undefined {
  const product = rows.products.get(productId);
  if (!product || product.deleted === true) return undefined;
  const before = product.units as number;
  const after = unitsOnSale(rows.levels.rowsOf(productId), product.size_labels as string[]);
  rows.products.update(productId, { units: after });
  return stockFigure(before) !== stockFigure(after) ? FIGURE_CHANGED : undefined;
}

/** Sets (`to`) or moves (`by`) a size's level, kept even before the product arrives, never for a tombstone. */
function setLevel(rows: Rows, productId: string, size: string | null, level: { to: number } | { by: number }) {
  if (tombstoned(rows, productId)) return;
  const row = { product_id: productId, size: size ?? '' };
  if ('to' in level) rows.levels.put({ ...row, available: level.to });
  else if (!rows.levels.add([productId, row.size], 'available', level.by))
    rows.levels.insert({ ...row, available: level.by });
}

/**
 * orders.dashboard_products and orders.dashboard_stock_levels: the product count and the low-stock and
 * out-of-stock counts of the admin dashboard, from the catalog's product and stock events (StockCommitted
 * changes nothing on sale: the units left the moment they were held). Product and stock events are in
 * different streams, which Kafka may deliver in any order: stock that arrives before its product is kept
 * and counted once the product comes, and a deleted product stays as a tombstone that ignores later stock,
 * so every order of delivery ends in the same rows.
 */
export const catalogFiguresReadModel = defineReadModel<
  UncheckedEvents<CatalogFact['type']>,
  typeof tables,
  FigureChanged
>({
  name: CATALOG_FIGURES_PROJECTION,
  schema: 'orders',
  sources: ['catalog'],
  tables,
  evolve: {
    ProductCreated(data, rows) {
      const d = ProductCreated.parse(data);
      const inserted = rows.products.insert({
        product_id: d.productId,
        size_labels: d.sizeLabels,
        units: 0,
        deleted: false,
      });
      refreshUnits(rows, d.productId);
      return inserted ? FIGURE_CHANGED : undefined;
    },
    ProductDetailsChanged(data, rows) {
      const d = ProductDetailsChanged.parse(data);
      if (d.sizeLabels === undefined) return;
      if (!tombstoned(rows, d.productId)) rows.products.update(d.productId, { size_labels: d.sizeLabels });
      return refreshUnits(rows, d.productId);
    },
    ProductDeleted(data, rows) {
      const { productId } = ProductDeleted.parse(data);
      const product = rows.products.get(productId);
      let tombstoned = false;
      if (!product)
        tombstoned = rows.products.insert({ product_id: productId, size_labels: [], units: 0, deleted: true });
      else if (product.deleted !== true) tombstoned = rows.products.update(productId, { deleted: true, units: 0 });
      rows.levels.deleteRowsOf(productId);
      return tombstoned ? FIGURE_CHANGED : undefined;
    },
    StockLevelSet(data, rows) {
      const d = StockLevelSet.parse(data);
      setLevel(rows, d.productId, d.size, { to: d.available });
      return refreshUnits(rows, d.productId);
    },
    // Held units are not for sale; released ones are again.
    StockReserved(data, rows) {
      const d = StockMoved.parse(data);
      setLevel(rows, d.productId, d.size, { by: -d.quantity });
      return refreshUnits(rows, d.productId);
    },
    StockReleased(data, rows) {
      const d = StockMoved.parse(data);
      setLevel(rows, d.productId, d.size, { by: d.quantity });
      return refreshUnits(rows, d.productId);
    },
  },
});

/** The dashboard's catalog figures, live: each commit that moved a figure is announced. */
export function catalogFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return readModelConsumer(catalogFiguresReadModel, (changed) => announceFigures(pubsub, changed));
}
