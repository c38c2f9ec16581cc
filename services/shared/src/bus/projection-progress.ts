import type { Pool } from 'pg';
import { schemaIdentifier } from './schema-name.ts';
import { Wakeup } from './wakeup.ts';

type Waiter = () => void;
/** Waiters of this process by "schema/consumer/stream id"; a lookup per announced stream, not a scan. */
const waiters = new Map<string, Set<Waiter>>();
const keyOf = (schema: string, consumer: string, streamId: string): string => `${schema}/${consumer}/${streamId}`;

/** Called by the subscriptions of this process after a commit that moved a consumer's streams forward. */
export function announceProjectionProgress(schema: string, consumer: string, streamIds: Iterable<string>): void {
  for (const streamId of streamIds) {
    const set = waiters.get(keyOf(schema, consumer, streamId));
    if (set) for (const wake of set) wake();
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
  /** Re-check interval for progress made by other processes (default 100 ms). */
  pollIntervalMs?: number;
}

/**
 * Read-your-writes: resolves true once the consumer has processed `streamId` up to `version`, false if
 * `timeoutMs` passes first. Woken at once by subscriptions in this process; polls for other processes.
 */
export async function waitForProjection(options: WaitForProjectionOptions): Promise<boolean> {
  const { pool, consumer, streamId, version, timeoutMs, pollIntervalMs = 100 } = options;
  const schema = schemaIdentifier(options.schema);
  const deadline = Date.now() + timeoutMs;
  const wakeup = new Wakeup();
  const key = keyOf(schema, consumer, streamId);
  const wake = (): void => wakeup.notify();
  let set = waiters.get(key);
  if (!set) waiters.set(key, (set = new Set()));
  set.add(wake);
  try {
    for (;;) {
      // Re-read even after an announcement: it may come from another database with the same schema names.
      const { rows } = await pool.query<{ stream_version: number }>(
        `SELECT stream_version FROM ${schema}.consumer_streams WHERE consumer = $1 AND stream_id = $2`,
        [consumer, streamId],
      );
      if ((rows[0]?.stream_version ?? 0) >= version) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await wakeup.wait(Math.min(pollIntervalMs, left));
    }
  } finally {
    set.delete(wake);
    if (set.size === 0) waiters.delete(key);
  }
}
