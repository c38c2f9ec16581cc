import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '@shop/shared/db/pool';
import { migrate } from '@shop/shared/db/migrate';
import { createFreshDatabase } from './fresh-database.ts';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** Creates a fresh, migrated database on the test Postgres server, so test files never share state. */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const db = await createFreshDatabase(serverUrl, name);
  const pool = createPool(db.url);
  if (opts.migrate !== false) await migrate(pool);
  return {
    url: db.url,
    pool,
    drop: async () => {
      await pool.end();
      await db.drop();
    },
  };
}
