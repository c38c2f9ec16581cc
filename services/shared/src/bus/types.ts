import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';

/**
 * A consumer of events (projection or process manager). Both bus adapters (Postgres-log subscription and
 * Kafka consumer group) feed the same interface, at least once; the adapter makes it effectively-once by
 * recording what was processed in the same transaction as the consumer's own writes.
 */
export interface EventConsumer {
  /** Unique, stable name: checkpoint key and Kafka consumer-group id. */
  readonly name: string;
  /** Schema of the service that owns this consumer's tables (checkpoints and parked events live there). */
  readonly schema: string;
  /** Services whose event logs (Postgres schemas / Kafka topics `shop.<source>.events`) it reads. */
  readonly sources: readonly string[];
  /** Event types it wants; others are skipped but still checkpointed. Undefined = all. */
  readonly eventTypes?: readonly string[];
  /** Applies one event inside the transaction that also records the checkpoint. Must be deterministic. */
  handle(event: RecordedEvent, tx: PoolClient): Promise<void>;
  /**
   * Called after the transaction holding these events' writes has committed (cache invalidation, push).
   * Not called for events that were skipped as duplicates. Failures are logged, never retried.
   */
  afterCommit?(events: RecordedEvent[]): void | Promise<void>;
}

/** A running feed of events into one consumer. */
export interface Subscription {
  readonly consumer: EventConsumer;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Kafka topic of a service's events. */
export const topicOf = (source: string): string => `shop.${source}.events`;
