import type pg from 'pg';
import { listProducts, type ProductView } from '../products/products-queries.ts';

/**
 * Products by units sold, most first; equal sales (none at all included) newest first, so a shop that has
 * sold nothing yet lists newest first. Delisted products only when asked (admin).
 */
export async function listBestSelling(db: pg.Pool, opts: { includeDelisted: boolean }): Promise<ProductView[]> {
  return listProducts(db, { ...opts, sort: 'best-selling' });
}
