import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';
import { applyEvent, runAfterCommit, type Applied, type ApplyOutcome } from './apply-event.ts';
import type { BusLogger } from './logger.ts';
import { parkEvent } from './parked-events.ts';
import { announceProjectionProgress } from './projection-progress.ts';
import { abortableDelay, backoffDelay, errorText, isConnectionError, type RetryPolicy } from './retry-policy.ts';
import { inTransaction } from './transaction.ts';
import type { EventConsumer } from './types.ts';

/** What became of one delivered event; `superseded`: another instance of the consumer had already moved past it. */
export type DeliveryOutcome = ApplyOutcome | 'parked' | 'superseded';

/** The result of delivering one event; `effect`: what the consumer's handle() returned, for afterCommit. */
export interface DeliveryResult {
  outcome: DeliveryOutcome;
  attempts: number;
  effect?: unknown;
}

/** Told about every event a subscription finished with (metrics, tests). Must not throw. */
export type DeliveryObserver = (delivery: {
  consumer: string;
  event: RecordedEvent;
  outcome: DeliveryOutcome;
  attempts: number;
}) => void;

export interface DeliveryContext {
  pool: Pool;
  consumer: EventConsumer;
  retry: RetryPolicy;
  logger: BusLogger;
  /** Aborting stops the retries: deliverEvent then rejects with the abort reason. */
  signal: AbortSignal;
}

export interface DeliveryHooks {
  /** Runs first in each transaction; false abandons the event as superseded. */
  guard?: (tx: PoolClient) => Promise<boolean>;
  /** Runs last in the transaction that applies or parks the event (the Postgres-log adapter's checkpoint). */
  complete?: (tx: PoolClient) => Promise<void>;
  /** Runs during waits between attempts, at least once a second (the Kafka adapter's heartbeat). */
  whileWaiting?: () => Promise<void>;
  /** A failure the caller already saw for this event (a failed batch), counted as the first attempt. */
  priorFailure?: unknown;
}

/** Delay between retries of a lost database connection: they never park the event. */
const CONNECTION_RETRY = { baseDelayMs: 100, maxDelayMs: 5_000 };

/**
 * Delivers one event in its own transaction (applyEvent + hooks), retrying a failing handler with
 * exponential backoff; after the policy's attempts it parks the event and moves on. Database connection
 * failures are retried until the signal aborts without counting as attempts.
 */
export async function deliverEvent(
  ctx: DeliveryContext,
  event: RecordedEvent,
  hooks: DeliveryHooks = {},
): Promise<DeliveryResult> {
  const { consumer, logger, retry, signal } = ctx;
  const log = {
    consumer: consumer.name,
    eventId: event.eventId,
    type: event.type,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
  };
  let failures = hooks.priorFailure === undefined ? 0 : 1;
  let lastError: unknown = hooks.priorFailure;
  let connectionFailures = 0;

  const wait = async (ms: number): Promise<void> => {
    for (let left = ms; left > 0; left -= 1_000) {
      await abortableDelay(Math.min(left, 1_000), signal);
      await hooks.whileWaiting?.();
    }
  };
  const attempt = async <T>(work: (tx: PoolClient) => Promise<T>): Promise<T | 'superseded'> =>
    inTransaction(ctx.pool, async (tx) => {
      if (hooks.guard && !(await hooks.guard(tx))) return 'superseded';
      const result = await work(tx);
      await hooks.complete?.(tx);
      return result;
    });

  while (failures < retry.attempts) {
    if (failures > 0) {
      logger.warn({ ...log, attempt: failures, err: errorText(lastError) }, 'consumer failed on an event; retrying');
      await wait(backoffDelay(failures, retry));
    }
    signal.throwIfAborted();
    try {
      const applied: Applied | 'superseded' = await attempt((tx) => applyEvent(tx, consumer, event));
      return applied === 'superseded'
        ? { outcome: applied, attempts: failures + 1 }
        : { ...applied, attempts: failures + 1 };
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (isConnectionError(err)) {
        connectionFailures += 1;
        logger.warn({ ...log, err: errorText(err) }, 'database unavailable while delivering an event; will retry');
        await wait(backoffDelay(connectionFailures, CONNECTION_RETRY));
        continue;
      }
      failures += 1;
      lastError = err;
    }
  }

  for (;;) {
    signal.throwIfAborted();
    try {
      const outcome = await attempt((tx) =>
        parkEvent(tx, consumer, event, errorText(lastError), failures).then(() => 'parked' as const),
      );
      if (outcome === 'parked')
        logger.error(
          { ...log, attempts: failures, err: errorText(lastError) },
          'event parked after repeated failures; the consumer carries on',
        );
      return { outcome, attempts: failures };
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      connectionFailures += 1;
      logger.error({ ...log, err: errorText(err) }, 'could not park an event; will retry');
      await wait(backoffDelay(connectionFailures, CONNECTION_RETRY));
    }
  }
}

/** Counters the subscriptions keep up to date (prom-client's Counter and Gauge fit). */
export interface DeliveryMetrics {
  /** Events a consumer finished with (handled, ignored or parked; not duplicates). */
  eventsProcessed?: { inc(labels: { consumer: string }, value?: number): void };
  /** Events parked. */
  parkedEvents?: { inc(labels: { consumer: string }, value?: number): void };
}

export interface DeliveryReporting {
  /** The consumer's database: read-your-writes waiters on it are told of its progress. */
  pool: Pool;
  logger: BusLogger;
  onDelivered?: DeliveryObserver | undefined;
  metrics?: DeliveryMetrics | undefined;
}

/**
 * The versions a commit recorded in consumer_streams, per stream: of the events handled, parked or found
 * duplicate (recorded at or above theirs). An ignored event (a type the consumer does not want) records none.
 */
function recordedVersions(deliveries: ReadonlyArray<DeliveryResult & { event: RecordedEvent }>): Map<string, number> {
  const versions = new Map<string, number>();
  for (const { event, outcome } of deliveries)
    if (outcome === 'handled' || outcome === 'duplicate' || outcome === 'parked')
      versions.set(event.streamId, Math.max(versions.get(event.streamId) ?? 0, event.streamVersion));
  return versions;
}

/**
 * What both adapters do after a commit: run the consumer's afterCommit with the effects of the events it
 * handled, then wake read-your-writes waiters, count, and tell the observer. `deliveries` are those of
 * committed transactions only: a rolled-back attempt's effects never get here.
 */
export async function reportDelivered(
  consumer: EventConsumer,
  deliveries: ReadonlyArray<DeliveryResult & { event: RecordedEvent }>,
  reporting: DeliveryReporting,
): Promise<void> {
  const done = deliveries.filter((d) => d.outcome !== 'superseded');
  const effects = done.filter((d) => d.outcome === 'handled' && d.effect !== undefined).map((d) => d.effect);
  // afterCommit first: a waiter woken below answers its client, whose next read must not hit a cache
  // that afterCommit has yet to invalidate.
  await runAfterCommit(consumer, effects, reporting.logger);
  announceProjectionProgress(reporting.pool, consumer.schema, consumer.name, recordedVersions(done));
  const processed = done.filter((d) => d.outcome !== 'duplicate').length;
  if (processed > 0) reporting.metrics?.eventsProcessed?.inc({ consumer: consumer.name }, processed);
  const parked = done.filter((d) => d.outcome === 'parked').length;
  if (parked > 0) reporting.metrics?.parkedEvents?.inc({ consumer: consumer.name }, parked);
  if (reporting.onDelivered) {
    for (const d of done) {
      try {
        reporting.onDelivered({ consumer: consumer.name, event: d.event, outcome: d.outcome, attempts: d.attempts });
      } catch {
        // an observer's failure must not stop the subscription
      }
    }
  }
}
