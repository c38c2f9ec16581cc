import type { Admin, Kafka } from 'kafkajs';
import type { Pool } from 'pg';
import type { PostgresEventStore } from '../eventstore/postgres-event-store.ts';
import type { DeliveryMetrics, DeliveryObserver } from './deliver-event.ts';
import { EventLogNotifications } from './event-log-notifications.ts';
import { createKafkaClient } from './kafka/kafka-client.ts';
import { KafkaOutboxRelay, type OutboxBacklogGauge } from './kafka/kafka-outbox-relay.ts';
import { KafkaSubscription, type KafkaConsumerTuning } from './kafka/kafka-subscription.ts';
import { silentLogger, type BusLogger } from './logger.ts';
import { PostgresLogSubscription, type ProjectionLagGauge } from './postgres-log/postgres-log-subscription.ts';
import { SourceLogReaders } from './postgres-log/source-log-reader.ts';
import { CheckpointMoves } from './postgres-log/checkpoint-moves.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { EventConsumer } from './types.ts';

export {
  applyEvent,
  markStreamVersion,
  runAfterCommit,
  wants,
  type Applied,
  type ApplyOutcome,
} from './apply-event.ts';
export {
  deliverEvent,
  reportDelivered,
  type DeliveryContext,
  type DeliveryHooks,
  type DeliveryMetrics,
  type DeliveryObserver,
  type DeliveryOutcome,
  type DeliveryReporting,
  type DeliveryResult,
} from './deliver-event.ts';
export { decodeEvent, encodeEvent, EventDecodeError, fromWire, toWire, type WireEvent } from './event-codec.ts';
export { EVENTS_CHANNEL, EventLogNotifications } from './event-log-notifications.ts';
export { createKafkaClient, ensureTopics } from './kafka/kafka-client.ts';
export { KafkaOutboxRelay, type KafkaOutboxRelayOptions, type OutboxBacklogGauge } from './kafka/kafka-outbox-relay.ts';
export {
  KafkaSubscription,
  type KafkaConsumerTuning,
  type KafkaSubscriptionOptions,
} from './kafka/kafka-subscription.ts';
export { silentLogger, type BusLogger } from './logger.ts';
export {
  listParkedEvents,
  parkEvent,
  replayParkedEvent,
  type ListParkedEventsOptions,
  type ParkedEvent,
  type ReplayParkedEventOptions,
} from './parked-events.ts';
export {
  PostgresLogSubscription,
  type PostgresLogSubscriptionOptions,
  type ProjectionLagGauge,
} from './postgres-log/postgres-log-subscription.ts';
export { announceProjectionProgress, waitForProjection, type WaitForProjectionOptions } from './projection-progress.ts';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isConnectionError,
  retryPolicy,
  type RetryPolicy,
} from './retry-policy.ts';
export { topicOf, type EventConsumer, type Subscription } from './types.ts';

/** Metrics the bus keeps up to date when given (the shared Metrics class fits). */
export interface BusMetrics extends DeliveryMetrics {
  projectionLag?: ProjectionLagGauge;
  outboxBacklog?: OutboxBacklogGauge;
}

export interface EventBusOptions {
  pool: Pool;
  /** Kafka bootstrap brokers; none (or empty) = consumers read the Postgres event logs. */
  kafkaBrokers?: string[] | undefined;
  /** The process's event stores: used to read logs with their upcasters and to wake consumers and relays at once. */
  stores?: readonly PostgresEventStore[];
  /** pino-compatible; silent when absent. */
  logger?: BusLogger;
  metrics?: BusMetrics;
  /** Kafka client id (default 'shop'). */
  clientId?: string;
  retry?: Partial<RetryPolicy>;
  /** Fallback poll of the Postgres logs and outboxes when no notification arrives (default 2000 ms). */
  pollIntervalMs?: number;
  /** Kafka topic of a source (default topicOf); tests give each run its own topics. */
  topicFor?: (source: string) => string;
  /**
   * Kafka consumer timings, how often a standby relay tries to take over (default 2000 ms), and how long a
   * published outbox row is kept (default one hour).
   */
  kafka?: KafkaConsumerTuning & { standbyRetryMs?: number; outboxRetentionMs?: number };
  onDelivered?: DeliveryObserver;
}

export interface EventBus {
  readonly kind: 'kafka' | 'postgres-log';
  /** A subscription feeding `consumer` (not started: call start()). close() stops it. */
  subscribe(consumer: EventConsumer): PostgresLogSubscription | KafkaSubscription;
  /** Starts (once) the outbox relay of a schema; no-op without Kafka, where consumers read the log itself. */
  startRelay(schema: string): Promise<void>;
  /** Throws if the bus cannot reach what it needs (Kafka cluster, or Postgres). */
  health(): Promise<void>;
  /** Stops every subscription and relay made by this bus and its connections. */
  close(): Promise<void>;
}

/** The bus adapter chosen by configuration: Kafka when brokers are given, else the Postgres event logs. */
export function createEventBus(options: EventBusOptions): EventBus {
  const { pool, stores = [], metrics } = options;
  const logger = options.logger ?? silentLogger;
  const notifications = new EventLogNotifications(pool, logger);
  const readers = new SourceLogReaders();
  const checkpointMoves = new CheckpointMoves(pool);
  const subscriptions: Array<PostgresLogSubscription | KafkaSubscription> = [];
  const relays = new Map<string, KafkaOutboxRelay>();
  const brokers = options.kafkaBrokers?.filter((b) => b.trim() !== '') ?? [];
  const kafka: Kafka | undefined =
    brokers.length > 0 ? createKafkaClient({ brokers, clientId: options.clientId, logger }) : undefined;
  let healthAdmin: Promise<Admin> | undefined;
  const common = { pool, retry: options.retry, logger, onDelivered: options.onDelivered };

  return {
    kind: kafka ? 'kafka' : 'postgres-log',

    subscribe(consumer) {
      const subscription = kafka
        ? new KafkaSubscription({ ...common, ...options.kafka, kafka, consumer, topicFor: options.topicFor, metrics })
        : new PostgresLogSubscription({
            ...common,
            consumer,
            stores,
            notifications,
            readers,
            checkpointMoves,
            pollIntervalMs: options.pollIntervalMs,
            metrics,
          });
      subscriptions.push(subscription);
      return subscription;
    },

    async startRelay(schema) {
      if (!kafka || relays.has(schema)) return;
      const relay = new KafkaOutboxRelay({
        pool,
        kafka,
        schema,
        notifications,
        stores,
        topicFor: options.topicFor,
        pollIntervalMs: options.pollIntervalMs,
        standbyRetryMs: options.kafka?.standbyRetryMs,
        publishedRetentionMs: options.kafka?.outboxRetentionMs,
        logger,
        outboxBacklog: metrics?.outboxBacklog,
      });
      relays.set(schema, relay);
      await relay.start();
    },

    async health() {
      if (!kafka) {
        await pool.query('SELECT 1');
        return;
      }
      healthAdmin ??= (async () => {
        const admin = kafka.admin();
        await admin.connect();
        return admin;
      })().catch((err: unknown) => {
        healthAdmin = undefined;
        throw err;
      });
      await (await healthAdmin).describeCluster();
    },

    async close() {
      const results = await Promise.allSettled([
        ...subscriptions.map((s) => s.stop()),
        ...[...relays.values()].map((r) => r.stop()),
      ]);
      subscriptions.length = 0;
      relays.clear();
      await notifications.stop();
      if (healthAdmin) await (await healthAdmin.catch(() => undefined))?.disconnect().catch(() => undefined);
      healthAdmin = undefined;
      for (const r of results)
        if (r.status === 'rejected')
          logger.warn({ err: String(r.reason) }, 'bus close: a subscription or relay did not stop cleanly');
    },
  };
}
