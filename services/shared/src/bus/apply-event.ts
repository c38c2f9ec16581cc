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
 * consumer is to handle it now (in this transaction), else why not. A batch claims each of its events,
 * then hands the claimed ones to the consumer's handleBatch at once.
 */
export async function claimEvent(
  tx: PoolClient,
  consumer: EventConsumer,
  event: RecordedEvent,
): Promise<'claimed' | 'ignored' | 'duplicate'> {
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
