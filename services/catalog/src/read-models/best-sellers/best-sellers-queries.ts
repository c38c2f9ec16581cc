import type pg from 'pg';
import { toView, type ProductView, type Row } from '../products/products-queries.ts';

/**
 * Products by units sold, most first; equal sales (none at all included) newest first, so a shop that has
 * sold nothing yet lists newest first. Delisted products only when asked (admin).
 */
export async function listBestSelling(db: pg.Pool, opts: { includeDelisted: boolean }): Promise<ProductView[]> {
  const { rows } = await db.query<Row>(
    `SELECT p.* FROM catalog.products p LEFT JOIN catalog.best_sellers b ON b.product_id = p.id
      ${opts.includeDelisted ? '' : 'WHERE NOT p.is_delisted'}
      ORDER BY coalesce(b.units_sold, 0) DESC, p.created_at DESC, p.id`,
  );
  return rows.map(toView);
}
