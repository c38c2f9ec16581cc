import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';

/**
 * A consumer of events (projection or process manager). Both bus adapters (Postgres-log subscription and
 * Kafka consumer group) feed the same interface, at least once; the adapter makes it effectively-once by
 * recording what was processed in the same transaction as the consumer's own writes.
 *
 * `Effect` is what handle() hands back for after the commit (the order that changed, the product whose
 * facts changed, "there is pending work"): the consumer keeps no memory of events between handle() and
 * afterCommit(), the adapter carries the effects of exactly the events that transaction committed.
 */
export interface EventConsumer<Effect = unknown> {
  /** Unique, stable name: checkpoint key and Kafka consumer-group id. */
  readonly name: string;
  /** Schema of the service that owns this consumer's tables (checkpoints and parked events live there). */
  readonly schema: string;
  /** Services whose event logs (Postgres schemas / Kafka topics `shop.<source>.events`) it reads. */
  readonly sources: readonly string[];
  /** Event types it wants; others are skipped but still checkpointed. Undefined = all. */
  readonly eventTypes?: readonly string[];
  /**
   * Applies one event inside the transaction that also records the dedupe claim (and the checkpoint). Writes
   * only through `tx`, calls no other service and no remote API, and is deterministic. What it returns
   * (anything but undefined) is the event's after-commit effect, given to afterCommit once `tx` committed;
   * the effects of a transaction that rolled back, and of duplicates (not handled), are never seen.
   */
  handle(event: RecordedEvent, tx: PoolClient): Promise<Effect | void>;
  /**
   * Applies several events at once, in order, inside one transaction (a read model: its rows loaded once
   * and written once per table), answering each event's effect. Optional: an adapter that delivers a batch
   * hands it the events it claimed, and otherwise calls handle() once per event.
   */
  handleBatch?(events: readonly RecordedEvent[], tx: PoolClient): Promise<Array<Effect | undefined>>;
  /**
   * Carries out the effects handle() returned for the events of one committed transaction, in event order
   * (cache invalidation, push, kicking a runner that calls other services). Called only when there is at
   * least one; a replay that rebuilt the consumer's tables calls it with [] (anything may have changed).
   * Failures are logged, never retried: work that must not be lost is recorded in the transaction by handle()
   * and carried out by a runner (PendingWork).
   */
  afterCommit?(effects: Effect[]): void | Promise<void>;
}

/** A running feed of events into one consumer. */
export interface Subscription {
  readonly consumer: EventConsumer;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Kafka topic of a service's events. */
export const topicOf = (source: string): string => `shop.${source}.events`;
