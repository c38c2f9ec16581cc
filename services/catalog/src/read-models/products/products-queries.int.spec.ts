import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { listBestSelling } from '../best-sellers/best-sellers-queries.ts';
import { listProducts, listProductsByIds, type ProductListFilter } from './products-queries.ts';

let db: TestDatabase;
// a..e created in that order (e newest); c is delisted; d and b share a creation time (ties go by id)
const products = [
  { id: 'a', at: '2026-01-01T00:00:00Z', delisted: false, sold: 5 },
  { id: 'b', at: '2026-01-02T00:00:00Z', delisted: false, sold: 0 },
  { id: 'c', at: '2026-01-03T00:00:00Z', delisted: true, sold: 9 },
  { id: 'd', at: '2026-01-02T00:00:00Z', delisted: false, sold: 5 },
  { id: 'e', at: '2026-01-05T00:00:00Z', delisted: false, sold: undefined },
];

beforeAll(async () => {
  db = await createTestDatabase();
  for (const p of products) {
    await db.pool.query(
      `INSERT INTO catalog.products (id, name, price_paise, is_delisted, size_quantities, created_at, updated_at)
       VALUES ($1, $2, 149950, $3, '{"M": 2}', $4, $4)`,
      [p.id, `Kurta ${p.id}`, p.delisted, p.at],
    );
    if (p.sold !== undefined)
      await db.pool.query('INSERT INTO catalog.best_sellers (product_id, units_sold) VALUES ($1, $2)', [p.id, p.sold]);
  }
});
afterAll(() => db?.drop());

const ids = async (filter: ProductListFilter) => (await listProducts(db.pool, filter)).map((p) => p.id);

describe('the product list query, composed from its filters', () => {
  it('lists newest first, ties by id, delisted products only when asked', async () => {
    expect(await ids({ includeDelisted: false })).toEqual(['e', 'b', 'd', 'a']);
    expect(await ids({ includeDelisted: true })).toEqual(['e', 'c', 'b', 'd', 'a']);
  });

  it('sorts by units sold, then newest first, with or without the delisted', async () => {
    expect(await ids({ includeDelisted: false, sort: 'best-selling' })).toEqual(['d', 'a', 'e', 'b']);
    expect(await ids({ includeDelisted: true, sort: 'best-selling' })).toEqual(['c', 'd', 'a', 'e', 'b']);
    expect((await listBestSelling(db.pool, { includeDelisted: false })).map((p) => p.id)).toEqual(['d', 'a', 'e', 'b']);
  });

  it('keeps to the given ids, in either sort, and answers them in the order given by id lookup', async () => {
    expect(await ids({ includeDelisted: false, ids: ['a', 'c', 'e', 'zz'] })).toEqual(['e', 'a']);
    expect(await ids({ includeDelisted: true, ids: ['a', 'c', 'e'], sort: 'best-selling' })).toEqual(['c', 'a', 'e']);
    const byIds = await listProductsByIds(db.pool, ['a', 'c', 'e', 'zz'], { includeDelisted: true });
    expect(byIds.map((p) => p.id)).toEqual(['a', 'c', 'e']);
    expect(await listProductsByIds(db.pool, [], { includeDelisted: true })).toEqual([]);
  });

  it('answers views with the price in rupees and the row as stored', async () => {
    const [e] = await listProducts(db.pool, { includeDelisted: false, ids: ['e'] });
    expect(e).toMatchObject({
      id: 'e',
      name: 'Kurta e',
      price: 1499.5,
      sizeQuantities: { M: 2 },
      isDelisted: false,
      createdAt: '2026-01-05T00:00:00.000Z',
    });
  });
});
