import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

it('migrates a fresh database with one event store per service', async () => {
  const { rows } = await db.pool.query(
    `SELECT table_schema FROM information_schema.tables WHERE table_name = 'events' ORDER BY 1`,
  );
  expect(rows.map((r) => r.table_schema)).toEqual(['accounts', 'catalog', 'checkout', 'orders']);
});
