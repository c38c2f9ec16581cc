import type { Pool, PoolClient } from 'pg';

/**
 * Runs fn in a transaction and commits. Unlike a bare COMMIT, it fails when Postgres answers ROLLBACK,
 * which happens when a handler caught a database error and carried on: the batch must not count as done.
 */
export async function inTransaction<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    const commit = await client.query('COMMIT');
    if (commit.command === 'ROLLBACK')
      throw new Error('Transaction was aborted by an earlier error that a handler caught; nothing was committed');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    // A client whose ROLLBACK failed has a dead or confused connection: drop it rather than pool it.
    client.release(broken instanceof Error ? broken : undefined);
  }
}
