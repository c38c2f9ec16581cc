import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';
import type { BusLogger } from './logger.ts';
import { errorText } from './retry-policy.ts';
import { schemaIdentifier } from './schema-name.ts';
import type { EventConsumer } from './types.ts';

/** handled: the consumer applied it; ignored: a type it does not want; duplicate: it had this version already. */
export type ApplyOutcome = 'handled' | 'ignored' | 'duplicate';

/** An applied event: its outcome and, when handled, the after-commit effect handle() returned (if any). */
export type Applied = { outcome: 'handled'; effect?: unknown } | { outcome: 'ignored' | 'duplicate' };

/** Whether the consumer wants events of this type. */
export function wants(consumer: EventConsumer, type: string): boolean {
  return consumer.eventTypes === undefined || consumer.eventTypes.includes(type);
}

/**
 * Offers one event to a consumer inside the caller's transaction; both bus adapters go through here.
 * It first claims (consumer, stream) at the event's version in consumer_streams: an event at or below the
 * version already recorded claims nothing and is skipped. The claim row stays locked until the transaction
 * ends, so two deliveries of one event racing each other apply it once. The claim and the handler's own
 * writes commit or roll back together, which turns at-least-once delivery into effectively-once. The
 * handler's effect comes back with the outcome, for the caller to pass on once (and only if) `tx` commits.
 */
export async function applyEvent(tx: PoolClient, consumer: EventConsumer, event: RecordedEvent): Promise<Applied> {
  const claimed = await claimEvent(tx, consumer, event);
  if (claimed !== 'claimed') return { outcome: claimed };
  const effect = await consumer.handle(event, tx);
  return effect === undefined ? { outcome: 'handled' } : { outcome: 'handled', effect };
}

/**
 * applyEvent's first half: claims (consumer, stream) at the event's version, answering `claimed` when the
 * consumer is to handle it now (in this transaction), else why not.
 */
export async function claimEvent(tx: PoolClient, consumer: EventConsumer, event: RecordedEvent): Promise<Claim> {
  // An unwanted type writes nothing: dedupe only needs the versions of handled events to increase, and
  // nobody waits on a consumer for an event it does not handle. (Six checkout consumers each recording
  // every checkout event was most of the write load of a sale.)
  if (!wants(consumer, event.type)) return 'ignored';
  const claim = await tx.query(
    `INSERT INTO ${schemaIdentifier(consumer.schema)}.consumer_streams AS cs (consumer, stream_id, stream_version)
     VALUES ($1, $2, $3)
     ON CONFLICT (consumer, stream_id) DO UPDATE SET stream_version = EXCLUDED.stream_version
       WHERE cs.stream_version < EXCLUDED.stream_version`,
    [consumer.name, event.streamId, event.streamVersion],
  );
  return claim.rowCount === 0 ? 'duplicate' : 'claimed';
}

/** Whether the consumer handles an event now, and if not why: not its type, or a version it has already. */
export type Claim = 'claimed' | 'ignored' | 'duplicate';

/**
 * claimEvent for a batch of events in one statement (the Postgres-log subscription's batches): each stream
 * is claimed once, at its highest version in the batch, and each event is `claimed` when it is above the
 * version recorded before (several of one stream, in order), a `duplicate` at or below it. The caller must
 * hold what serialises this consumer's deliveries (the subscription's checkpoint row, updated earlier in
 * `tx`), so that the versions read here are the latest; a claim that finds otherwise throws, and the caller
 * falls back to claiming event by event.
 */
export async function claimEvents(
  tx: PoolClient,
  consumer: EventConsumer,
  events: readonly RecordedEvent[],
): Promise<Claim[]> {
  const top = new Map<string, number>();
  for (const e of events)
    if (wants(consumer, e.type)) top.set(e.streamId, Math.max(top.get(e.streamId) ?? 0, e.streamVersion));
  if (top.size === 0) return events.map(() => 'ignored');
  const table = `${schemaIdentifier(consumer.schema)}.consumer_streams`;
  // `was` locks and reads the versions recorded before; joined into the INSERT, it is read before any row is
  // written. The INSERT's own condition stays, for a version recorded meanwhile.
  const { rows } = await tx.query<{ stream_id: string; was: number; claimed: boolean; fresh: boolean | null }>(
    `WITH batch AS (SELECT * FROM unnest($2::text[], $3::int[]) AS b(stream_id, stream_version)),
          was AS (SELECT cs.stream_id, cs.stream_version FROM ${table} cs
                   WHERE cs.consumer = $1 AND cs.stream_id = ANY($2::text[]) FOR UPDATE),
          claimed AS (
            INSERT INTO ${table} AS cs (consumer, stream_id, stream_version)
            SELECT $1, b.stream_id, b.stream_version FROM batch b LEFT JOIN was w USING (stream_id)
             WHERE b.stream_version > coalesce(w.stream_version, 0)
            ON CONFLICT (consumer, stream_id) DO UPDATE SET stream_version = EXCLUDED.stream_version
              WHERE cs.stream_version < EXCLUDED.stream_version
            RETURNING cs.stream_id, (cs.xmax = 0) AS fresh)
     SELECT b.stream_id, coalesce(w.stream_version, 0) AS was, c.stream_id IS NOT NULL AS claimed, c.fresh
       FROM batch b LEFT JOIN was w USING (stream_id) LEFT JOIN claimed c USING (stream_id)`,
    [consumer.name, [...top.keys()], [...top.values()]],
  );
  const recorded = new Map<string, number>();
  for (const r of rows) {
    // Claimed over a version that `was` did not see: recorded by someone not serialised with this batch.
    if (r.claimed && !r.fresh && r.was === 0)
      throw new Error(`Stream ${r.stream_id} of ${consumer.name} was claimed concurrently; claiming one by one`);
    recorded.set(r.stream_id, r.claimed ? r.was : top.get(r.stream_id)!);
  }
  return events.map((e) =>
    !wants(consumer, e.type) ? 'ignored' : e.streamVersion > recorded.get(e.streamId)! ? 'claimed' : 'duplicate',
  );
}

/** Records that a consumer is done with a stream up to `version` (never moves it back). */
export async function markStreamVersion(
  tx: PoolClient,
  consumer: EventConsumer,
  streamId: string,
  version: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${schemaIdentifier(consumer.schema)}.consumer_streams AS cs (consumer, stream_id, stream_version)
     VALUES ($1, $2, $3)
     ON CONFLICT (consumer, stream_id) DO UPDATE SET stream_version = GREATEST(cs.stream_version, EXCLUDED.stream_version)`,
    [consumer.name, streamId, version],
  );
}

/**
 * Runs a consumer's afterCommit with the effects its handle() returned in a committed transaction (none:
 * not called). Failures are logged, not retried.
 */
export async function runAfterCommit(consumer: EventConsumer, effects: unknown[], logger: BusLogger): Promise<void> {
  if (effects.length === 0 || !consumer.afterCommit) return;
  try {
    await consumer.afterCommit(effects);
  } catch (err) {
    logger.warn(
      { consumer: consumer.name, count: effects.length, err: errorText(err) },
      'afterCommit failed (not retried)',
    );
  }
}
