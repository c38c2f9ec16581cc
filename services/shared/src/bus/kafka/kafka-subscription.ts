import type { Consumer, EachMessagePayload, Kafka } from 'kafkajs';
import type { Pool } from 'pg';
import {
  deliverEvent,
  reportDelivered,
  type DeliveryContext,
  type DeliveryMetrics,
  type DeliveryObserver,
  type DeliveryReporting,
} from '../deliver-event.ts';
import { decodeEvent } from '../event-codec.ts';
import { silentLogger, type BusLogger } from '../logger.ts';
import { errorText, retryPolicy, type RetryPolicy } from '../retry-policy.ts';
import { schemaIdentifier } from '../schema-name.ts';
import { topicOf, type EventConsumer, type Subscription } from '../types.ts';
import { ensureTopics } from './kafka-client.ts';

/** kafkajs consumer timings; the defaults suit real Kafka, tests against the mock broker lower them. */
export interface KafkaConsumerTuning {
  /**
   * Longest a fetch waits for data (default 500 ms). Real Kafka answers as soon as data arrives;
   * librdkafka's mock always waits this long, so it bounds delivery latency there.
   */
  maxWaitTimeInMs?: number;
  /** Group session timeout (default 30 s). The mock also waits about this long to rebalance a group a member left. */
  sessionTimeout?: number;
  /** Default 3 s, or a third of a shorter sessionTimeout; keep it well under sessionTimeout. */
  heartbeatInterval?: number;
}

export interface KafkaSubscriptionOptions extends KafkaConsumerTuning {
  pool: Pool;
  kafka: Kafka;
  consumer: EventConsumer;
  /** Topic of a source (default topicOf: shop.<source>.events). */
  topicFor?: (source: string) => string;
  retry?: Partial<RetryPolicy>;
  logger?: BusLogger;
  onDelivered?: DeliveryObserver;
  metrics?: DeliveryMetrics;
}

/**
 * Feeds a consumer from its sources' Kafka topics in a consumer group named after it (distributed mode).
 * Each message goes through deliverEvent, the same transaction as the Postgres-log adapter (dedupe by
 * consumer_streams, handler, retries, parking); kafkajs commits the offset only after that returns, so
 * delivery is at-least-once and the dedupe makes it effectively-once.
 */
export class KafkaSubscription implements Subscription {
  readonly consumer: EventConsumer;
  private readonly topics: string[];
  private readonly retry: RetryPolicy;
  private readonly logger: BusLogger;
  private readonly reporting: DeliveryReporting;
  private kafkaConsumer: Consumer | undefined;
  private abort: AbortController | undefined;
  private joined = false;
  private readonly joinWaiters = new Set<() => void>();

  constructor(private readonly options: KafkaSubscriptionOptions) {
    this.consumer = options.consumer;
    schemaIdentifier(this.consumer.schema);
    if (this.consumer.sources.length === 0) throw new Error(`Consumer ${this.consumer.name} has no sources`);
    this.topics = this.consumer.sources.map(options.topicFor ?? topicOf);
    this.retry = retryPolicy(options.retry);
    this.logger = options.logger ?? silentLogger;
    this.reporting = {
      pool: options.pool,
      logger: this.logger,
      onDelivered: options.onDelivered,
      metrics: options.metrics,
    };
  }

  /**
   * Makes sure the topics exist (a consumer may start before anything was published), joins the group and
   * starts consuming. Resolves before the group join completes: see waitForGroupJoin.
   */
  async start(): Promise<void> {
    if (this.kafkaConsumer) return;
    await ensureTopics(this.options.kafka, this.topics, this.logger);
    const sessionTimeout = this.options.sessionTimeout ?? 30_000;
    const consumer = this.options.kafka.consumer({
      groupId: this.consumer.name,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? 500,
      sessionTimeout,
      heartbeatInterval: this.options.heartbeatInterval ?? Math.min(3_000, Math.floor(sessionTimeout / 3)),
      allowAutoTopicCreation: true,
    });
    this.joined = false;
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      this.joined = true;
      this.logger.info(
        { consumer: this.consumer.name, assignment: e.payload.memberAssignment },
        'kafka consumer joined its group',
      );
      for (const w of this.joinWaiters) w();
    });
    consumer.on(consumer.events.CRASH, (e) => {
      this.joined = false;
      this.logger.error(
        { consumer: this.consumer.name, err: errorText(e.payload.error), restart: e.payload.restart },
        'kafka consumer crashed',
      );
    });
    this.abort = new AbortController();
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: this.topics, fromBeginning: true });
      await consumer.run({ eachMessage: (payload) => this.onMessage(payload) });
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    this.kafkaConsumer = consumer;
    this.logger.info({ consumer: this.consumer.name, topics: this.topics }, 'kafka subscription started');
  }

  /** Leaves the group after the message in hand (an event being retried is redelivered later). */
  async stop(): Promise<void> {
    const consumer = this.kafkaConsumer;
    if (!consumer) return;
    this.abort?.abort(new Error('subscription stopped'));
    await consumer.disconnect();
    this.kafkaConsumer = undefined;
    this.joined = false;
    this.logger.info({ consumer: this.consumer.name }, 'kafka subscription stopped');
  }

  /** Resolves once the consumer has joined its group (kafkajs GROUP_JOIN) since start; rejects after timeoutMs. */
  async waitForGroupJoin(timeoutMs = 30_000): Promise<void> {
    if (this.joined) return;
    await new Promise<void>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.joinWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.joinWaiters.delete(done);
        reject(new Error(`Consumer ${this.consumer.name} did not join its group within ${timeoutMs} ms`));
      }, timeoutMs);
      this.joinWaiters.add(done);
    });
  }

  private async onMessage({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    const signal = this.abort!.signal;
    let event;
    try {
      if (!message.value) throw new Error('empty message');
      event = decodeEvent(message.value);
    } catch (err) {
      // Not an event at all (nothing to park it as); it stays in the topic for inspection.
      this.logger.error(
        { consumer: this.consumer.name, topic, partition, offset: message.offset, err: errorText(err) },
        'skipping a message that is not an event',
      );
      return;
    }
    const ctx: DeliveryContext = {
      pool: this.options.pool,
      consumer: this.consumer,
      retry: this.retry,
      logger: this.logger,
      signal,
    };
    const result = await deliverEvent(ctx, event, { whileWaiting: heartbeat });
    await reportDelivered(this.consumer, [{ event, ...result }], this.reporting);
  }
}
