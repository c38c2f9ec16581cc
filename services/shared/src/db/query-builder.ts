/**
 * knex as a query builder only, for queries composed from filters (the product list, the order lists): it
 * has no connection of its own; the SQL it writes runs on the service's pg pool (its type parsers, its
 * limits). Fixed queries stay hand-written SQL where that reads better (the event store, the hot paths).
 */
import createKnex, { type Knex } from 'knex';
import type pg from 'pg';

/** A query being built. */
export type Query = Knex.QueryBuilder;

/** Builds queries in Postgres's dialect; never connects. */
export const sql: Knex = createKnex({ client: 'pg' });

/** Runs a built query on a pool or client, with native $n parameters. */
export async function queryRows<R extends pg.QueryResultRow>(db: pg.Pool | pg.PoolClient, query: Query): Promise<R[]> {
  const { sql: text, bindings } = query.toSQL().toNative();
  return (await db.query<R>(text, bindings as unknown[])).rows;
}
