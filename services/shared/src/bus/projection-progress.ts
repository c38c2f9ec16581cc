import type { Pool } from 'pg';
import { schemaIdentifier } from './schema-name.ts';
import { Wakeup } from './wakeup.ts';

interface Waiter {
  version: number;
  reached(): void;
}
/**
 * Waiters of this process by "database/schema/consumer/stream id": a lookup per announced stream, not a
 * scan. The database is part of the key because one process may run several shops, each on a database of
 * its own with the same schema and consumer names (the tests do): one's progress must not wake another's.
 */
const waiters = new Map<string, Set<Waiter>>();
const keyOf = (database: string, schema: string, consumer: string, streamId: string): string =>
  `${database}/${schema}/${consumer}/${streamId}`;

/** Which database a pool connects to (server and database name), or else the pool itself. */
const databases = new WeakMap<Pool, string>();
let anonymousPools = 0;
function databaseOf(pool: Pool): string {
  let key = databases.get(pool);
  if (key !== undefined) return key;
  const o = (pool as { options?: { connectionString?: string; host?: string; port?: number; database?: string } })
    .options;
  if (o?.connectionString) {
    const url = new URL(o.connectionString);
    key = `${url.hostname}:${url.port || '5432'}/${decodeURIComponent(url.pathname.slice(1))}`;
  } else if (o?.database) key = `${o.host ?? ''}:${o.port ?? 5432}/${o.database}`;
  else key = `pool#${(anonymousPools += 1)}`;
  databases.set(pool, key);
  return key;
}

/**
 * Called by the subscriptions of this process after a commit that recorded a consumer's progress: for each
 * stream, a version the consumer has now processed it up to (in `<schema>.consumer_streams` of the pool's
 * database). Wakes the waiters of those streams whose version is reached.
 */
export function announceProjectionProgress(
  pool: Pool,
  schema: string,
  consumer: string,
  versions: Iterable<readonly [streamId: string, version: number]>,
): void {
  const database = databaseOf(pool);
  for (const [streamId, version] of versions) {
    const set = waiters.get(keyOf(database, schema, consumer, streamId));
    if (set) for (const w of set) if (w.version <= version) w.reached();
  }
}

export interface WaitForProjectionOptions {
  pool: Pool;
  /** Schema of the consumer (where its consumer_streams table is). */
  schema: string;
  /** Consumer name. */
  consumer: string;
  streamId: string;
  /** Stream version the caller wrote (e.g. AppendResult.nextExpectedVersion). */
  version: number;
  timeoutMs: number;
  /** Re-check interval for progress made by other processes (default 250 ms). */
  pollIntervalMs?: number;
}

/**
 * Read-your-writes: resolves true once the consumer has processed `streamId` up to `version`, false if
 * `timeoutMs` passes first. Reads consumer_streams once (the consumer may be past it already, or run in
 * another process); after that a subscription of this process announcing the version resolves it from
 * memory, and only a slow re-read covers progress made by other processes.
 */
export async function waitForProjection(options: WaitForProjectionOptions): Promise<boolean> {
  const { pool, consumer, streamId, version, timeoutMs, pollIntervalMs = 250 } = options;
  const schema = schemaIdentifier(options.schema);
  const deadline = Date.now() + timeoutMs;
  const wakeup = new Wakeup();
  let reached = false;
  const waiter: Waiter = {
    version,
    reached: () => {
      reached = true;
      wakeup.notify();
    },
  };
  const key = keyOf(databaseOf(pool), schema, consumer, streamId);
  let set = waiters.get(key);
  if (!set) waiters.set(key, (set = new Set()));
  // Registered before the first read: progress committed after that read is announced to it.
  set.add(waiter);
  try {
    for (;;) {
      const { rows } = await pool.query<{ stream_version: number }>(
        `SELECT stream_version FROM ${schema}.consumer_streams WHERE consumer = $1 AND stream_id = $2`,
        [consumer, streamId],
      );
      if (reached || (rows[0]?.stream_version ?? 0) >= version) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await wakeup.wait(Math.min(pollIntervalMs, left));
      if (reached) return true;
    }
  } finally {
    set.delete(waiter);
    if (set.size === 0) waiters.delete(key);
  }
}
