import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';

/** createPool: a query with values runs as a named prepared statement, on pool.query and on pool.connect(). */
describe('createPool', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db.drop();
  });

  /** Names of the statements prepared on the connection that runs this. */
  const preparedOn = async (client: { query: TestDatabase['pool']['query'] }): Promise<string[]> =>
    (await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name);

  it('prepares a query with values once per connection, and leaves a query without values unnamed', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('SELECT 1');
      expect(await preparedOn(client)).toEqual([]);
      for (let i = 0; i < 3; i++) expect((await client.query('SELECT $1::int AS n', [i])).rows).toEqual([{ n: i }]);
      // And with a query config object, same text: the same prepared statement.
      expect((await client.query({ text: 'SELECT $1::int AS n', values: [7] })).rows).toEqual([{ n: 7 }]);
      expect(await preparedOn(client)).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it('prepares afresh a statement whose table was recreated with other columns', async () => {
    await db.pool.query('CREATE TABLE recreated (id int PRIMARY KEY, a text)');
    await db.pool.query(`INSERT INTO recreated VALUES (1, 'x')`);
    const client = await db.pool.connect();
    try {
      const select = (id: number) => client.query('SELECT * FROM recreated WHERE id = $1', [id]);
      expect((await select(1)).rows).toEqual([{ id: 1, a: 'x' }]);
      // Replay and migrations drop and create tables: the prepared statement's columns no longer match.
      await db.pool.query('DROP TABLE recreated');
      await db.pool.query('CREATE TABLE recreated (id int PRIMARY KEY, a text, b int)');
      await db.pool.query(`INSERT INTO recreated VALUES (1, 'y', 2)`);
      // Outside a transaction, answered at once.
      expect((await select(1)).rows).toEqual([{ id: 1, a: 'y', b: 2 }]);

      await db.pool.query('DROP TABLE recreated');
      await db.pool.query('CREATE TABLE recreated (id int PRIMARY KEY, c text)');
      await db.pool.query(`INSERT INTO recreated VALUES (1, 'z')`);
      // In a transaction the failure aborts it (nothing else could be trusted); the next attempt works.
      await client.query('BEGIN');
      await expect(select(1)).rejects.toThrow(/cached plan must not change result type/);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      expect((await select(1)).rows).toEqual([{ id: 1, c: 'z' }]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
});
