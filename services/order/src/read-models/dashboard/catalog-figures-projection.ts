import type { PoolClient } from 'pg';
import { z } from 'zod';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import { announceFigures, FIGURE_CHANGED, type FigureChanged } from '../../push/dashboard-changes.ts';

export const CATALOG_FIGURES_PROJECTION = 'orders.dashboard_catalog';

// Catalog events as this service relies on them: checked, not trusted (only the fields used here).
const id = z.string().min(1);
const count = z.number().int();
const ProductCreated = z.object({ productId: id, sizeLabels: z.array(z.string()) });
const ProductDetailsChanged = z.object({ productId: id, sizeLabels: z.array(z.string()).optional() });
const ProductDeleted = z.object({ productId: id });
const StockLevelSet = z.object({ productId: id, size: z.string().nullable(), available: count });
const StockMoved = z.object({ productId: id, size: z.string().nullable(), quantity: count.min(0) });

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

/**
 * orders.dashboard_products and orders.dashboard_stock_levels: the product count and the low-stock and
 * out-of-stock counts of the admin dashboard, from the catalog's product and stock events (StockCommitted
 * changes nothing on sale: the units left the moment they were held). Product and stock events are in
 * different streams, which Kafka may deliver in any order: stock that arrives before its product is kept
 * and counted once the product comes, and a deleted product stays as a tombstone that ignores later stock,
 * so every order of delivery ends in the same rows.
 */
export function catalogFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return {
    name: CATALOG_FIGURES_PROJECTION,
    schema: 'orders',
    sources: ['catalog'],
    eventTypes: [
      'ProductCreated',
      'ProductDetailsChanged',
      'ProductDeleted',
      'StockLevelSet',
      'StockReserved',
      'StockReleased',
    ],
    async handle(event, tx) {
      let moved: { before: number; after: number } | null;
      switch (event.type) {
        case 'ProductCreated': {
          const d = ProductCreated.parse(event.data);
          const inserted = await tx.query(
            `INSERT INTO orders.dashboard_products (product_id, size_labels) VALUES ($1, $2)
             ON CONFLICT (product_id) DO NOTHING`,
            [d.productId, d.sizeLabels],
          );
          await refreshUnits(tx, d.productId);
          return inserted.rowCount === 1 ? FIGURE_CHANGED : undefined;
        }
        case 'ProductDetailsChanged': {
          const d = ProductDetailsChanged.parse(event.data);
          if (d.sizeLabels === undefined) return;
          await tx.query(
            `UPDATE orders.dashboard_products SET size_labels = $2 WHERE product_id = $1 AND NOT deleted`,
            [d.productId, d.sizeLabels],
          );
          moved = await refreshUnits(tx, d.productId);
          break;
        }
        case 'ProductDeleted': {
          const { productId } = ProductDeleted.parse(event.data);
          const tombstoned = await tx.query(
            `INSERT INTO orders.dashboard_products AS p (product_id, units, deleted) VALUES ($1, 0, true)
             ON CONFLICT (product_id) DO UPDATE SET deleted = true, units = 0 WHERE NOT p.deleted`,
            [productId],
          );
          await tx.query(`DELETE FROM orders.dashboard_stock_levels WHERE product_id = $1`, [productId]);
          return tombstoned.rowCount === 1 ? FIGURE_CHANGED : undefined;
        }
        case 'StockLevelSet': {
          const d = StockLevelSet.parse(event.data);
          await tx.query(
            `INSERT INTO orders.dashboard_stock_levels (product_id, size, available)
             SELECT $1, $2, $3 WHERE NOT EXISTS
               (SELECT 1 FROM orders.dashboard_products WHERE product_id = $1 AND deleted)
             ON CONFLICT (product_id, size) DO UPDATE SET available = EXCLUDED.available`,
            [d.productId, d.size ?? '', d.available],
          );
          moved = await refreshUnits(tx, d.productId);
          break;
        }
        case 'StockReserved':
        case 'StockReleased': {
          // Held units are not for sale; released ones are again.
          const d = StockMoved.parse(event.data);
          await tx.query(
            `INSERT INTO orders.dashboard_stock_levels AS s (product_id, size, available)
             SELECT $1, $2, $3 WHERE NOT EXISTS
               (SELECT 1 FROM orders.dashboard_products WHERE product_id = $1 AND deleted)
             ON CONFLICT (product_id, size) DO UPDATE SET available = s.available + EXCLUDED.available`,
            [d.productId, d.size ?? '', event.type === 'StockReserved' ? -d.quantity : d.quantity],
          );
          moved = await refreshUnits(tx, d.productId);
          break;
        }
        default:
          return;
      }
      if (moved && stockFigure(moved.before) !== stockFigure(moved.after)) return FIGURE_CHANGED;
    },
    afterCommit: (changed) => announceFigures(pubsub, changed),
  };
}
