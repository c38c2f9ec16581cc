import { createHash } from 'node:crypto';
import pg from 'pg';

// bigint columns (global positions, xid8) come back as strings by default; keep them exact as bigint.
pg.types.setTypeParser(20, (v) => BigInt(v)); // int8
pg.types.setTypeParser(5069 as Parameters<typeof pg.types.setTypeParser>[0], (v: string) => BigInt(v)); // xid8

/**
 * A connection pool with the project's type parsers installed. Every query with values runs as a named
 * prepared statement (preparedStatements), whether through pool.query or a client from pool.connect().
 */
export function createPool(connectionString: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'shop' });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // Nor may a checked-out one (pg-pool listens only while a client is idle): a client held between queries
    // (a transaction awaiting other work, a LISTEN) when Postgres restarts emits 'error' with no listener, an
    // uncaught exception. Its holder's next query fails instead, and release() drops the broken client.
    client.on('error', () => undefined);
    preparedStatements(client);
    backendsOf(pool).add(backendPid(client));
  });
  pool.on('remove', (client) => backendsOf(pool).delete(backendPid(client)));
  return pool;
}

/** The server process of a connection (pg reads it at connect, but does not declare it). */
const backendPid = (client: pg.PoolClient): number | null =>
  (client as { processID?: number | null }).processID ?? null;

const backends = new WeakMap<pg.Pool, Set<number | null>>();
const backendsOf = (pool: pg.Pool): Set<number | null> => {
  let set = backends.get(pool);
  if (!set) backends.set(pool, (set = new Set()));
  return set;
};

/**
 * Whether `pid` is the server process of one of the pool's open connections (a NOTIFY's processId tells who
 * sent it). Only pools made by createPool know theirs; any other answers false.
 */
export function isBackendOf(pool: pg.Pool, pid: number): boolean {
  return backends.get(pool)?.has(pid) ?? false;
}

/** Statements prepared per connection at most; later new texts run unnamed (dynamic SQL must not pile up). */
const MAX_PREPARED_PER_CONNECTION = 256;
/** A statement with more values than this is a one-off bulk write (its text varies with its size): unnamed. */
const MAX_PREPARED_VALUES = 100;

/** Name of a statement text: the same on every connection, unique per text (a prefix of its SHA-1). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 10_000) statementNames.set(text, name);
  }
  return name;
}

/** Postgres refuses a prepared statement whose result columns changed since it was prepared (a table recreated). */
const isStalePlan = (err: unknown): boolean =>
  (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String(err));

type Callback = (err: Error | null, result?: unknown) => void;

/**
 * Makes the client run each query that has values as a named prepared statement, so Postgres parses and
 * plans its text once per connection rather than on every call. Queries without values (DDL, several
 * statements in one text, LISTEN) keep the simple protocol, and so do queries that name themselves,
 * stream (cursors), carry many values, or come once a connection has MAX_PREPARED_PER_CONNECTION.
 * A statement whose table was recreated with other columns fails once with "cached plan must not change
 * result type"; it is then prepared afresh under another name (and retried at once outside a transaction).
 */
export function preparedStatements(client: pg.ClientBase): void {
  const original = client.query as (...args: unknown[]) => unknown;
  /** Name of each text prepared on this connection; a text whose plan went stale gets a new generation. */
  const names = new Map<string, string>();
  let stale = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_PREPARED_PER_CONNECTION) return known;
    const name = statementName(text);
    names.set(text, name);
    return name;
  };
  const forget = (text: string): void => {
    stale += 1;
    names.set(text, `${statementName(text)}_${stale}`);
  };

  client.query = function query(this: pg.ClientBase, ...args: unknown[]): unknown {
    const [first, second] = args;
    let config: pg.QueryConfig;
    let rest: unknown[];
    if (typeof first === 'string' && Array.isArray(second)) {
      config = { text: first, values: second };
      rest = args.slice(2);
    } else if (
      first !== null &&
      typeof first === 'object' &&
      typeof (first as { submit?: unknown }).submit !== 'function' &&
      typeof (first as pg.QueryConfig).text === 'string' &&
      (first as pg.QueryConfig).name === undefined
    ) {
      const values = Array.isArray(second) ? second : (first as pg.QueryConfig).values;
      config = { ...(first as pg.QueryConfig), values };
      rest = args.slice(Array.isArray(second) ? 2 : 1);
    } else {
      return original.apply(client, args);
    }
    const { text, values } = config;
    if (!values || values.length === 0 || values.length > MAX_PREPARED_VALUES) return original.apply(client, args);
    const name = nameOf(text);
    if (name === undefined) return original.apply(client, args);

    // A stale plan: prepare afresh; outside a transaction (nothing aborted) run it again at once.
    const again = (err: unknown): boolean => {
      if (!isStalePlan(err)) return false;
      forget(text);
      return client.getTransactionStatus() === 'I';
    };
    const callback = rest.find((a): a is Callback => typeof a === 'function');
    if (callback) {
      original.call(client, { ...config, name }, (err: Error | null, result: unknown) => {
        if (err && again(err)) original.call(client, { ...config, name: nameOf(text) }, callback);
        else callback(err, result);
      });
      return undefined;
    }
    return (original.call(client, { ...config, name }) as Promise<unknown>).catch((err: unknown) => {
      if (again(err)) return original.call(client, { ...config, name: nameOf(text) });
      throw err;
    });
  } as typeof client.query;
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
