import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '@shop/shared/db/pool';
import { migrate } from '@shop/shared/db/migrate';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** Creates a fresh, migrated database on the test Postgres server, so test files never share state. */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = createPool(url);
  if (opts.migrate !== false) await migrate(pool);
  return {
    url,
    pool,
    drop: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
