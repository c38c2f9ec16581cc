import pg from 'pg';

// bigint columns (global positions, xid8) come back as strings by default; keep them exact as bigint.
pg.types.setTypeParser(20, (v) => BigInt(v)); // int8
pg.types.setTypeParser(5069 as Parameters<typeof pg.types.setTypeParser>[0], (v: string) => BigInt(v)); // xid8

/** A connection pool with the project's type parsers installed. */
export function createPool(connectionString: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'shop' });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor may a checked-out one (pg-pool listens only while a client is idle): a client held between queries
  // (a transaction awaiting other work, a LISTEN) when Postgres restarts emits 'error' with no listener, an
  // uncaught exception. Its holder's next query fails instead, and release() drops the broken client.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Runs fn inside a transaction on one client; rolls back on any error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export type { Pool, PoolClient } from 'pg';
