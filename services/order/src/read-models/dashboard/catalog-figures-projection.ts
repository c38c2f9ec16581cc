import type { PoolClient } from 'pg';
import { z } from 'zod';
import { defineProjection, type UncheckedEvents } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import { announceFigures, FIGURE_CHANGED, type FigureChanged } from '../../push/dashboard-changes.ts';
import { figureIf } from './figure-changes.ts';

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

/**
 * Recomputes a product's units the way catalog.products counts its quantity (products-projection.ts): the
 * general stock, never below 0, plus each offered size's stock, never below 0. A size no longer offered
 * counts for nothing. Answers the units before and after, or null for an unknown or deleted product.
 */
async function refreshUnits(tx: PoolClient, productId: string): Promise<{ before: number; after: number } | null> {
  const { rows } = await tx.query<{ before: number; after: number }>(
    `UPDATE orders.dashboard_products p SET units =
       greatest(0, coalesce((SELECT available FROM orders.dashboard_stock_levels
                              WHERE product_id = p.product_id AND size = ''), 0))
       + coalesce((SELECT sum(greatest(0, s.available)) FROM orders.dashboard_stock_levels s
                    WHERE s.product_id = p.product_id AND s.size = ANY (p.size_labels)), 0)
       FROM (SELECT product_id, units FROM orders.dashboard_products WHERE product_id = $1) old
     WHERE p.product_id = old.product_id AND NOT p.deleted
     RETURNING old.units AS before, p.units AS after`,
    [productId],
  );
  return rows[0] ?? null;
}

/** A figure changed when the product's units moved to another of in stock, low and out. */
const figureMoved = (moved: { before: number; after: number } | null): FigureChanged | undefined =>
  moved && stockFigure(moved.before) !== stockFigure(moved.after) ? FIGURE_CHANGED : undefined;

/** A sale's hold (sign -1) or release (sign 1) of units, kept even before the product arrives. */
async function moveHeldUnits(
  tx: PoolClient,
  d: z.infer<typeof StockMoved>,
  sign: 1 | -1,
): Promise<FigureChanged | undefined> {
  await tx.query(
    `INSERT INTO orders.dashboard_stock_levels AS s (product_id, size, available)
     SELECT $1, $2, $3 WHERE NOT EXISTS
       (SELECT 1 FROM orders.dashboard_products WHERE product_id = $1 AND deleted)
     ON CONFLICT (product_id, size) DO UPDATE SET available = s.available + EXCLUDED.available`,
    [d.productId, d.size ?? '', sign * d.quantity],
  );
  return figureMoved(await refreshUnits(tx, d.productId));
}

/**
 * orders.dashboard_products and orders.dashboard_stock_levels: the product count and the low-stock and
 * out-of-stock counts of the admin dashboard, from the catalog's product and stock events (StockCommitted
 * changes nothing on sale: the units left the moment they were held). Product and stock events are in
 * different streams, which Kafka may deliver in any order: stock that arrives before its product is kept
 * and counted once the product comes, and a deleted product stays as a tombstone that ignores later stock,
 * so every order of delivery ends in the same rows.
 */
export function catalogFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return defineProjection<UncheckedEvents<CatalogFact['type']>, FigureChanged>({
    name: CATALOG_FIGURES_PROJECTION,
    schema: 'orders',
    sources: ['catalog'],
    on: {
      async ProductCreated(data, tx) {
        const d = ProductCreated.parse(data);
        const inserted = await tx.query(
          `INSERT INTO orders.dashboard_products (product_id, size_labels) VALUES ($1, $2)
           ON CONFLICT (product_id) DO NOTHING`,
          [d.productId, d.sizeLabels],
        );
        await refreshUnits(tx, d.productId);
        return figureIf(inserted);
      },
      async ProductDetailsChanged(data, tx) {
        const d = ProductDetailsChanged.parse(data);
        if (d.sizeLabels === undefined) return;
        await tx.query(`UPDATE orders.dashboard_products SET size_labels = $2 WHERE product_id = $1 AND NOT deleted`, [
          d.productId,
          d.sizeLabels,
        ]);
        return figureMoved(await refreshUnits(tx, d.productId));
      },
      async ProductDeleted(data, tx) {
        const { productId } = ProductDeleted.parse(data);
        const tombstoned = await tx.query(
          `INSERT INTO orders.dashboard_products AS p (product_id, units, deleted) VALUES ($1, 0, true)
           ON CONFLICT (product_id) DO UPDATE SET deleted = true, units = 0 WHERE NOT p.deleted`,
          [productId],
        );
        await tx.query(`DELETE FROM orders.dashboard_stock_levels WHERE product_id = $1`, [productId]);
        return figureIf(tombstoned);
      },
      async StockLevelSet(data, tx) {
        const d = StockLevelSet.parse(data);
        await tx.query(
          `INSERT INTO orders.dashboard_stock_levels (product_id, size, available)
           SELECT $1, $2, $3 WHERE NOT EXISTS
             (SELECT 1 FROM orders.dashboard_products WHERE product_id = $1 AND deleted)
           ON CONFLICT (product_id, size) DO UPDATE SET available = EXCLUDED.available`,
          [d.productId, d.size ?? '', d.available],
        );
        return figureMoved(await refreshUnits(tx, d.productId));
      },
      // Held units are not for sale; released ones are again.
      StockReserved: (data, tx) => moveHeldUnits(tx, StockMoved.parse(data), -1),
      StockReleased: (data, tx) => moveHeldUnits(tx, StockMoved.parse(data), 1),
    },
    afterCommit: (changed) => announceFigures(pubsub, changed),
  });
}
