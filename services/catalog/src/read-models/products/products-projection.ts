import type { PoolClient } from 'pg';
import { changedDetailsUpdate, defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { ProductEvent } from '../../product/events.ts';
import type { StockEvent } from '../../stock/events.ts';
import type { ProductListCache } from './product-list-cache.ts';
import type { ProductFactsView } from '../../inventory/product-facts.ts';

export const PRODUCTS_PROJECTION = 'catalog.products';

/** A product's detail fields (ProductDetailsChanged) and their columns (the replay fold shares them). */
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
/** ProductDetailsChanged: nothing written when none of the detail fields changed. */
const updateDetails = changedDetailsUpdate('catalog.products', DETAIL_COLUMNS, { skipWhenUnchanged: true });

/**
 * Rebuilds a product row's ordered size map and its quantity from catalog.stock_levels. The quantity is
 * every unit on sale: the general stock plus the offered sizes' (one of the two is 0, see stockLevelsFor).
 */
async function refreshStock(tx: PoolClient, productId: string, at: string) {
  await tx.query(
    `UPDATE catalog.products p SET
       quantity = greatest(0, coalesce((SELECT available FROM catalog.stock_levels WHERE product_id = p.id AND size = ''), 0))
         + coalesce((SELECT sum(greatest(0, s.available)) FROM catalog.stock_levels s
                      WHERE s.product_id = p.id AND s.size = ANY (p.size_labels)), 0),
       size_quantities = coalesce((
         SELECT json_object_agg(l.label, coalesce(s.available, 0) ORDER BY l.ord)
           FROM unnest(p.size_labels) WITH ORDINALITY AS l(label, ord)
           LEFT JOIN catalog.stock_levels s ON s.product_id = p.id AND s.size = l.label), '{}'::json),
       updated_at = greatest(updated_at, $2::timestamptz)
     WHERE id = $1`,
    [productId, at],
  );
}

/** What a handled event changed, for after the commit: the product, and whether checkout's pricing facts of it. */
export interface ProductChange {
  productId: string;
  factsChanged: boolean;
}

/** A product's change: of its facts (checkout's pricing copy drops it), or only of its units (a sale's hold). */
const factsOf = (productId: string): ProductChange => ({ productId, factsChanged: true });
const unitsOf = (productId: string): ProductChange => ({ productId, factsChanged: false });

/** A sale's hold (StockReserved, -quantity) or release (StockReleased, +quantity) of units. */
async function moveHeldUnits(
  tx: PoolClient,
  d: { productId: string; size: string | null; at: string },
  delta: number,
): Promise<ProductChange> {
  // Held units are not for sale; released ones are again. A sale (StockCommitted) changes nothing here.
  await tx.query(
    `INSERT INTO catalog.stock_levels (product_id, size, available) VALUES ($1, $2, $3)
     ON CONFLICT (product_id, size) DO UPDATE SET available = catalog.stock_levels.available + $3`,
    [d.productId, d.size ?? '', delta],
  );
  await refreshStock(tx, d.productId, d.at);
  return unitsOf(d.productId);
}

/** Delisting (true) or relisting (false) a product. */
async function setDelisted(
  tx: PoolClient,
  d: { productId: string; at: string },
  delisted: boolean,
): Promise<ProductChange> {
  await tx.query(`UPDATE catalog.products SET is_delisted = $2, updated_at = $3 WHERE id = $1`, [
    d.productId,
    delisted,
    d.at,
  ]);
  return factsOf(d.productId);
}

/**
 * catalog.products: the product list and detail reads (and the stock levels they show). After each commit
 * the product list cache is invalidated and checkout's copies of the changed products' facts dropped.
 */
export function productsProjection(cache?: ProductListCache, facts?: ProductFactsView): EventConsumer<ProductChange> {
  return defineProjection<ProductEvent | StockEvent, ProductChange>({
    name: PRODUCTS_PROJECTION,
    schema: 'catalog',
    sources: ['catalog'],
    on: {
      async ProductCreated(d, tx) {
        await tx.query(
          `INSERT INTO catalog.products (id, name, price_paise, description, category, size, color, brand, material, image, size_labels, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) ON CONFLICT (id) DO NOTHING`,
          [
            d.productId,
            d.name,
            d.pricePaise,
            d.description,
            d.category,
            d.size,
            d.color,
            d.brand,
            d.material,
            d.image,
            d.sizeLabels,
            d.createdAt,
          ],
        );
        await refreshStock(tx, d.productId, d.createdAt);
        return factsOf(d.productId);
      },
      async ProductDetailsChanged({ productId, changedAt, ...changes }, tx) {
        await updateDetails(tx, productId, changedAt, changes);
        if ('sizeLabels' in changes) await refreshStock(tx, productId, changedAt);
        return factsOf(productId);
      },
      ProductDelisted: (d, tx) => setDelisted(tx, d, true),
      ProductRelisted: (d, tx) => setDelisted(tx, d, false),
      async ProductDeleted(d, tx) {
        await tx.query(`DELETE FROM catalog.products WHERE id = $1`, [d.productId]);
        await tx.query(`DELETE FROM catalog.stock_levels WHERE product_id = $1`, [d.productId]);
        return factsOf(d.productId);
      },
      async StockLevelSet(d, tx) {
        await tx.query(
          `INSERT INTO catalog.stock_levels (product_id, size, available) VALUES ($1, $2, $3)
           ON CONFLICT (product_id, size) DO UPDATE SET available = EXCLUDED.available`,
          [d.productId, d.size ?? '', d.available],
        );
        await refreshStock(tx, d.productId, d.at);
        return factsOf(d.productId);
      },
      StockReserved: (d, tx) => moveHeldUnits(tx, d, -d.quantity),
      StockReleased: (d, tx) => moveHeldUnits(tx, d, d.quantity),
    },
    async afterCommit(changes) {
      await cache?.invalidate();
      const changed = changes.filter((c) => c.factsChanged);
      if (facts && changed.length > 0) await facts.changed([...new Set(changed.map((c) => c.productId))]);
    },
  });
}
