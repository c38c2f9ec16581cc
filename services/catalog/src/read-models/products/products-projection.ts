import { changedColumns } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer, type RowsOf } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { ReadModelConsumer } from '@shop/shared/bus/projection-read-model';
import { greatestTime } from '@shop/shared/replay/fold';
import type { ProductEvent } from '../../product/events.ts';
import type { StockEvent } from '../../stock/events.ts';
import type { ProductListCache } from './product-list-cache.ts';
import type { ProductFactsView } from '../../inventory/product-facts.ts';
import { unitsOnSale } from './units-on-sale.ts';

export const PRODUCTS_PROJECTION = 'catalog.products';

/** A product's detail fields (ProductDetailsChanged) and their columns. */
export const DETAIL_COLUMNS: Record<string, string> = {
  name: 'name',
  pricePaise: 'price_paise',
  description: 'description',
  category: 'category',
  size: 'size',
  color: 'color',
  brand: 'brand',
  material: 'material',
  image: 'image',
  sizeLabels: 'size_labels',
};

const tables = {
  products: table('catalog.products', {
    key: ['id'],
    columns: [
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
    ],
  }),
  levels: table('catalog.stock_levels', {
    key: ['product_id', 'size'],
    columns: ['product_id', 'size', 'available'],
  }),
};
type Rows = RowsOf<typeof tables>;

/**
 * Recomputes a product row's ordered size map (as json_object_agg writes it: `{ "S" : 3, "M" : 0 }`, '{}'
 * without sizes) and its quantity from its stock levels. The quantity is every unit on sale: the general
 * stock plus the offered sizes' (one of the two is 0, see stockLevelsFor).
 */
function refreshStock({ products, levels }: Rows, productId: string, at: string): void {
  const product = products.get(productId);
  if (!product) return;
  const labels = (product.size_labels as string[] | null) ?? [];
  const held = levels.rowsOf(productId);
  const available = (label: string) => (held.find((l) => l.size === label)?.available as number | undefined) ?? 0;
  products.update(productId, {
    quantity: unitsOnSale(held, labels),
    size_quantities: labels.length
      ? `{ ${labels.map((l) => `${JSON.stringify(l)} : ${available(l)}`).join(', ')} }`
      : '{}',
    updated_at: greatestTime(product.updated_at as string, at),
  });
}

/** What a handled event changed, for after the commit: the product, and whether checkout's pricing facts of it. */
export interface ProductChange {
  productId: string;
  factsChanged: boolean;
}

/** A product's change: of its facts (checkout's pricing copy drops it), or only of its units (a sale's hold). */
const factsOf = (productId: string): ProductChange => ({ productId, factsChanged: true });
const unitsOf = (productId: string): ProductChange => ({ productId, factsChanged: false });

/** Sets (`to`) or moves (`by`) a size's level, adding its row if there is none. */
function setLevel(levels: Rows['levels'], productId: string, size: string, level: { to: number } | { by: number }) {
  const key = [productId, size];
  if ('to' in level) levels.put({ product_id: productId, size, available: level.to });
  else if (!levels.add(key, 'available', level.by)) levels.insert({ product_id: productId, size, available: level.by });
}

/** A sale's hold (StockReserved, -quantity) or release (StockReleased, +quantity) of units. */
function moveHeldUnits(
  rows: Rows,
  d: { productId: string; size: string | null; at: string },
  delta: number,
): ProductChange {
  // Held units are not for sale; released ones are again. A sale (StockCommitted) changes nothing here.
  setLevel(rows.levels, d.productId, d.size ?? '', { by: delta });
  refreshStock(rows, d.productId, d.at);
  return unitsOf(d.productId);
}

/** catalog.products (and the stock levels it shows): the product list and detail reads. */
export const productsReadModel = defineReadModel<ProductEvent | StockEvent, typeof tables, ProductChange>({
  name: PRODUCTS_PROJECTION,
  schema: 'catalog',
  sources: ['catalog'],
  tables,
  evolve: {
    ProductCreated(d, rows) {
      rows.products.insert({
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
      refreshStock(rows, d.productId, d.createdAt);
      return factsOf(d.productId);
    },
    ProductDetailsChanged({ productId, changedAt, ...changes }, rows) {
      // Nothing written when none of the detail fields changed.
      const { columns, values } = changedColumns(changes, DETAIL_COLUMNS);
      if (columns.length)
        rows.products.update(productId, {
          ...Object.fromEntries(columns.map((c, i) => [c, values[i]])),
          updated_at: changedAt,
        });
      if ('sizeLabels' in changes) refreshStock(rows, productId, changedAt);
      return factsOf(productId);
    },
    ProductDelisted(d, { products }) {
      products.update(d.productId, { is_delisted: true, updated_at: d.at });
      return factsOf(d.productId);
    },
    ProductRelisted(d, { products }) {
      products.update(d.productId, { is_delisted: false, updated_at: d.at });
      return factsOf(d.productId);
    },
    ProductDeleted(d, { products, levels }) {
      products.delete(d.productId);
      levels.deleteRowsOf(d.productId);
      return factsOf(d.productId);
    },
    StockLevelSet(d, rows) {
      setLevel(rows.levels, d.productId, d.size ?? '', { to: d.available });
      refreshStock(rows, d.productId, d.at);
      return factsOf(d.productId);
    },
    StockReserved: (d, rows) => moveHeldUnits(rows, d, -d.quantity),
    StockReleased: (d, rows) => moveHeldUnits(rows, d, d.quantity),
  },
});

/**
 * catalog.products' live consumer. After each commit the product list cache is invalidated and checkout's
 * copies of the changed products' facts dropped.
 */
export function productsProjection(
  cache?: ProductListCache,
  facts?: ProductFactsView,
): ReadModelConsumer<ProductChange> {
  return readModelConsumer(productsReadModel, async (changes) => {
    await cache?.invalidate();
    const changed = changes.filter((c) => c.factsChanged);
    if (facts && changed.length > 0) await facts.changed([...new Set(changed.map((c) => c.productId))]);
  });
}
