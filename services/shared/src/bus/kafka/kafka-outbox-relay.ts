import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Pool, PoolClient } from 'pg';
import { EVENT_COLUMNS, PostgresEventStore, type EventRow } from '../../eventstore/postgres-event-store.ts';
import { isBackendOf } from '../../db/pool.ts';
import { encodeEvent } from '../event-codec.ts';
import { EventLogNotifications } from '../event-log-notifications.ts';
import { silentLogger, type BusLogger } from '../logger.ts';
import { abortableDelay, backoffDelay, errorText } from '../retry-policy.ts';
import { schemaIdentifier } from '../schema-name.ts';
import { topicOf } from '../types.ts';
import { Wakeup } from '../wakeup.ts';
import { ensureTopics } from './kafka-client.ts';
import { OUTBOX_PUBLISHED_RETENTION_MS, prunePublishedOutbox } from './outbox-pruning.ts';

/** The outbox-backlog gauge the relay keeps up to date (prom-client's Gauge fits). */
export interface OutboxBacklogGauge {
  set(labels: { source: string }, value: number): void;
}

export interface KafkaOutboxRelayOptions {
  pool: Pool;
  kafka: Kafka;
  /** Service schema whose outbox this relay publishes. */
  schema: string;
  /** Shared LISTEN connection; without one the relay opens its own. */
  notifications?: EventLogNotifications;
  /** Stores of this process: appends through them wake the relay at once. */
  stores?: readonly PostgresEventStore[];
  /** Topic of a source (default topicOf: shop.<schema>.events). */
  topicFor?: (source: string) => string;
  /** Events per Kafka send (default 500). */
  batchSize?: number;
  /** Fallback poll when no notification arrives (default 2000 ms). */
  pollIntervalMs?: number;
  /** How often a standby relay tries to take over (default 2000 ms). */
  standbyRetryMs?: number;
  logger?: BusLogger;
  outboxBacklog?: OutboxBacklogGauge;
  /** How long a published outbox row is kept before the relay deletes it (default one hour). */
  publishedRetentionMs?: number;
  /** How often the active relay looks for published rows past retention (default 60 000 ms). */
  pruneEveryMs?: number;
  /** Rows deleted per statement (default 1000); a full batch is followed by another on the next turn. */
  pruneBatchSize?: number;
}

/** Advisory-lock class of outbox relays; the object id is hashtext(schema). */
const RELAY_LOCK_CLASS = 727_002;

/**
 * Publishes a service's outbox to its Kafka topic (keyed by stream id, so each aggregate stays in order on
 * one partition), then marks the rows published; rows published longer ago than the retention are deleted
 * in batches between publishing turns (the events stay in the log). At-least-once: a crash between send and mark publishes
 * again and consumers dedupe. One relay per schema is active across all processes: the one holding a
 * session-level advisory lock; the others stand by and take over when that session ends. Plain acks=all
 * producer: no idempotence or transactions, which librdkafka's mock broker lacks.
 */
export class KafkaOutboxRelay {
  readonly schema: string;
  private readonly topic: string;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly standbyRetryMs: number;
  private readonly publishedRetentionMs: number;
  private readonly pruneEveryMs: number;
  private readonly pruneBatchSize: number;
  /** When (performance.now()) the next prune is due; 0 = on the next turn. */
  private nextPruneAt = 0;
  private readonly logger: BusLogger;
  private readonly notifications: EventLogNotifications;
  private readonly ownsNotifications: boolean;
  private readonly wakeup = new Wakeup();
  /** Maps outbox rows to events (with this process's upcasters when its store is given). */
  private readonly store: PostgresEventStore;
  private topicReady = false;
  private lockClient: PoolClient | undefined;
  private producer: Producer | undefined;
  private unsubscribes: Array<() => void> = [];
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: KafkaOutboxRelayOptions) {
    this.schema = schemaIdentifier(options.schema);
    this.topic = (options.topicFor ?? topicOf)(this.schema);
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 2_000;
    this.standbyRetryMs = options.standbyRetryMs ?? 2_000;
    this.publishedRetentionMs = options.publishedRetentionMs ?? OUTBOX_PUBLISHED_RETENTION_MS;
    this.pruneEveryMs = options.pruneEveryMs ?? 60_000;
    this.pruneBatchSize = options.pruneBatchSize ?? 1_000;
    this.logger = options.logger ?? silentLogger;
    this.ownsNotifications = !options.notifications;
    this.notifications = options.notifications ?? new EventLogNotifications(options.pool, this.logger);
    this.store =
      options.stores?.find((st) => st.schema === this.schema) ?? new PostgresEventStore(options.pool, this.schema);
  }

  /** Whether this relay currently holds the lock and publishes. */
  get isActive(): boolean {
    return this.lockClient !== undefined;
  }

  /** Starts competing for the schema's relay lock; resolves at once (active or standing by). */
  async start(): Promise<void> {
    if (this.loop) return;
    await this.notifications.start();
    const wake = (): void => this.wakeup.notify();
    const inProcess = (this.options.stores ?? []).filter((s) => s.schema === this.schema);
    this.unsubscribes = [
      // A commit on a connection of a store's pool was announced by that store (onAppended) already.
      this.notifications.on(this.schema, (from) => {
        if (from === undefined || !inProcess.some((s) => isBackendOf(s.pool, from))) wake();
      }),
      ...inProcess.map((s) => s.onAppended(wake)),
    ];
    this.abort = new AbortController();
    this.loop = this.run(this.abort.signal);
  }

  /** Stops publishing and gives up the lock (a standby relay elsewhere takes over). */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.abort?.abort(new Error('relay stopped'));
    await this.loop;
    this.loop = undefined;
    for (const u of this.unsubscribes) u();
    this.unsubscribes = [];
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = undefined;
    if (this.ownsNotifications) await this.notifications.stop();
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        if (!this.lockClient && !(await this.tryToLead())) {
          await abortableDelay(this.standbyRetryMs, signal).catch(() => undefined);
          continue;
        }
        const published = await this.publishBatch();
        const pruned = await this.pruneIfDue();
        failures = 0;
        if (published === this.batchSize || pruned === this.pruneBatchSize) continue;
        await this.wakeup.wait(this.pollIntervalMs, signal);
      } catch (err) {
        if (signal.aborted) break;
        failures += 1;
        const delay = backoffDelay(failures, { baseDelayMs: 100, maxDelayMs: 5_000 });
        this.logger.warn(
          { schema: this.schema, topic: this.topic, err: errorText(err), retryInMs: delay },
          'outbox relay failed; retrying',
        );
        await abortableDelay(delay, signal).catch(() => undefined);
      }
    }
    this.stepDown('stopped');
  }

  private async tryToLead(): Promise<boolean> {
    const client = await this.options.pool.connect();
    let locked = false;
    try {
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        [RELAY_LOCK_CLASS, this.schema],
      );
      locked = rows[0]?.locked === true;
    } finally {
      if (!locked) client.release();
    }
    if (!locked) return false;
    client.on('error', (err: Error) => {
      if (this.lockClient === client) this.stepDown(`lock connection lost: ${errorText(err)}`, err);
    });
    this.lockClient = client;
    this.logger.info({ schema: this.schema, topic: this.topic }, 'outbox relay active');
    return true;
  }

  /** Ends the lock session (destroying the connection releases the lock on the server). */
  private stepDown(reason: string, err?: Error): void {
    const client = this.lockClient;
    if (!client) return;
    this.lockClient = undefined;
    client.release(err ?? true);
    this.logger.info({ schema: this.schema, reason }, 'outbox relay stepped down');
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.options.kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: true,
        idempotent: false,
        // One request in flight keeps a partition's order when a send is retried.
        maxInFlightRequests: 1,
      });
      await producer.connect();
      this.producer = producer;
    }
    if (!this.topicReady) {
      await ensureTopics(this.options.kafka, [this.topic], this.logger);
      this.topicReady = true;
    }
    return this.producer;
  }

  /**
   * Deletes one batch of rows published longer ago than the retention, when due; returns how many. Only the
   * active relay prunes (on its lock session), so two processes never prune one outbox at once.
   */
  private async pruneIfDue(): Promise<number> {
    const client = this.lockClient;
    if (!client || performance.now() < this.nextPruneAt) return 0;
    const pruned = await prunePublishedOutbox(client, this.schema, this.publishedRetentionMs, this.pruneBatchSize);
    // A full batch: more are past retention, deleted on the next turn (after publishing); else wait.
    this.nextPruneAt = pruned === this.pruneBatchSize ? 0 : performance.now() + this.pruneEveryMs;
    if (pruned > 0) this.logger.debug({ schema: this.schema, count: pruned }, 'published outbox rows pruned');
    return pruned;
  }

  /** Publishes the oldest unpublished outbox rows; returns how many. Uses the lock session, so a lost lock fails it. */
  private async publishBatch(): Promise<number> {
    const client = this.lockClient;
    if (!client) return 0;
    const { rows } = await client.query<EventRow>(
      `SELECT ${EVENT_COLUMNS.split(', ')
        .map((c) => `e.${c}`)
        .join(', ')}
         FROM ${this.schema}.outbox o JOIN ${this.schema}.events e ON e.global_position = o.global_position
        WHERE o.published_at IS NULL
        ORDER BY o.global_position
        LIMIT $1`,
      [this.batchSize],
    );
    if (rows.length > 0) {
      // the store's own mapping: upcast like every other read of the log
      const events = rows.map((r) => this.store.fromRow(r));
      const producer = await this.connectedProducer();
      await producer.send({
        topic: this.topic,
        acks: -1,
        messages: events.map((e) => ({
          key: e.streamId,
          value: encodeEvent(e),
          headers: { 'event-id': e.eventId, 'event-type': e.type, source: e.source },
        })),
      });
      await client.query(
        `UPDATE ${this.schema}.outbox SET published_at = now() WHERE global_position = ANY($1::bigint[])`,
        [events.map((e) => e.globalPosition.toString())],
      );
      this.logger.debug({ schema: this.schema, topic: this.topic, count: events.length }, 'outbox published');
    }
    if (this.options.outboxBacklog) {
      const { rows: backlog } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${this.schema}.outbox WHERE published_at IS NULL`,
      );
      this.options.outboxBacklog.set({ source: this.schema }, backlog[0]?.n ?? 0);
    }
    return rows.length;
  }
}
