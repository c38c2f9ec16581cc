import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';
import { markStreamVersion, runAfterCommit } from './apply-event.ts';
import { fromWire, toWire } from './event-codec.ts';
import { silentLogger, type BusLogger } from './logger.ts';
import { announceProjectionProgress } from './projection-progress.ts';
import { errorText } from './retry-policy.ts';
import { schemaIdentifier } from './schema-name.ts';
import { inTransaction } from './transaction.ts';
import type { EventConsumer } from './types.ts';

/** An event a consumer gave up on after its retries, kept for admins to inspect and replay. */
export interface ParkedEvent {
  id: bigint;
  consumer: string;
  source: string;
  eventId: string;
  streamId: string;
  streamVersion: number;
  globalPosition: bigint;
  type: string;
  event: RecordedEvent;
  error: string;
  attempts: number;
  parkedAt: Date;
  replayedAt: Date | null;
}

interface ParkedRow {
  id: bigint;
  consumer: string;
  source: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  global_position: bigint;
  type: string;
  event: unknown;
  error: string;
  attempts: number;
  parked_at: Date;
  replayed_at: Date | null;
}

const toParked = (r: ParkedRow): ParkedEvent => ({
  id: r.id,
  consumer: r.consumer,
  source: r.source,
  eventId: r.event_id,
  streamId: r.stream_id,
  streamVersion: r.stream_version,
  globalPosition: r.global_position,
  type: r.type,
  event: fromWire(r.event),
  error: r.error,
  attempts: r.attempts,
  parkedAt: r.parked_at,
  replayedAt: r.replayed_at,
});

/**
 * Parks an event in the caller's transaction: writes it to parked_events and marks its stream version as
 * dealt with, so a redelivery does not run the retries again. Parking the same event twice keeps the first.
 */
export async function parkEvent(
  tx: PoolClient,
  consumer: EventConsumer,
  event: RecordedEvent,
  error: string,
  attempts: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${schemaIdentifier(consumer.schema)}.parked_events
       (consumer, source, event_id, stream_id, stream_version, global_position, type, event, error, attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (consumer, event_id) DO NOTHING`,
    [
      consumer.name,
      event.source,
      event.eventId,
      event.streamId,
      event.streamVersion,
      event.globalPosition.toString(),
      event.type,
      JSON.stringify(toWire(event)),
      error,
      attempts,
    ],
  );
  await markStreamVersion(tx, consumer, event.streamId, event.streamVersion);
}

export interface ListParkedEventsOptions {
  pool: Pool;
  /** Schema the consumers' tables live in. */
  schema: string;
  /** Only this consumer's events. */
  consumer?: string;
  /** Also list events already replayed (default false). */
  includeReplayed?: boolean;
  limit?: number;
}

/** Parked events, oldest first. */
export async function listParkedEvents(options: ListParkedEventsOptions): Promise<ParkedEvent[]> {
  const { pool, consumer, includeReplayed = false, limit = 100 } = options;
  const { rows } = await pool.query<ParkedRow>(
    `SELECT * FROM ${schemaIdentifier(options.schema)}.parked_events
      WHERE ($1::text IS NULL OR consumer = $1) AND ($2 OR replayed_at IS NULL)
      ORDER BY id LIMIT $3`,
    [consumer ?? null, includeReplayed, limit],
  );
  return rows.map(toParked);
}

export interface ReplayParkedEventOptions {
  pool: Pool;
  /** The consumer that parked it (its handler runs again). */
  consumer: EventConsumer;
  /** parked_events.id */
  id: bigint | number | string;
  logger?: BusLogger;
}

/**
 * Runs the consumer's handler again on one of its parked events (after the cause was fixed). On success
 * the handler's writes and replayed_at commit together, afterCommit runs with its effect, and it returns true; it returns
 * false if the event is not parked (any more) for this consumer. If the handler fails again, the row's
 * error and attempt count are updated and the error is thrown.
 */
export async function replayParkedEvent(options: ReplayParkedEventOptions): Promise<boolean> {
  const { pool, consumer, logger = silentLogger } = options;
  const id = String(options.id);
  const table = `${schemaIdentifier(consumer.schema)}.parked_events`;
  let replayed: { parked: ParkedEvent; effect: unknown } | undefined;
  try {
    replayed = await inTransaction(pool, async (tx) => {
      const { rows } = await tx.query<ParkedRow>(
        `SELECT * FROM ${table} WHERE id = $1 AND consumer = $2 AND replayed_at IS NULL FOR UPDATE`,
        [id, consumer.name],
      );
      const row = rows[0];
      if (!row) return undefined;
      const parked = toParked(row);
      // No dedupe here: parking marked the version as dealt with, so only an explicit replay applies it.
      const effect: unknown = await consumer.handle(parked.event, tx);
      await markStreamVersion(tx, consumer, parked.streamId, parked.streamVersion);
      await tx.query(`UPDATE ${table} SET replayed_at = now() WHERE id = $1`, [id]);
      return { parked, effect };
    });
  } catch (err) {
    await pool
      .query(`UPDATE ${table} SET error = $3, attempts = attempts + 1 WHERE id = $1 AND consumer = $2`, [
        id,
        consumer.name,
        errorText(err),
      ])
      .catch(() => undefined);
    throw err;
  }
  if (!replayed) return false;
  const { parked, effect } = replayed;
  logger.info({ consumer: consumer.name, eventId: parked.eventId, type: parked.type }, 'parked event replayed');
  await runAfterCommit(consumer, effect === undefined ? [] : [effect], logger);
  announceProjectionProgress(pool, consumer.schema, consumer.name, [[parked.streamId, parked.streamVersion]]);
  return true;
}
