import type { Redis } from 'ioredis';
import { createLogger, type Logger } from '../observability/logger.ts';
import { UnavailableError } from '../errors/errors.ts';
import { deliver } from './memory-pubsub.ts';
import { openRedis, quitRedis, type RedisConnection } from './redis-connection.ts';
import type { PubSub } from './types.ts';

export interface RedisPubSubOptions {
  /** Used to publish; subscriptions get their own connection, duplicated from it. */
  connection: RedisConnection;
  /** Prepended to every channel name. Default `shop:pubsub:`. */
  prefix?: string;
  logger?: Logger;
}

interface Subscription {
  handler: (message: string) => void;
  onGap?: (() => void) | undefined;
}

/** Pub/sub over Redis (distributed mode): fan-out to every process subscribed with the same prefix. */
export class RedisPubSub implements PubSub {
  readonly prefix: string;
  private readonly publisher: Redis;
  private readonly ownsPublisher: boolean;
  private readonly logger: Logger;
  /** A connection in subscriber mode can run no other command, hence its own. */
  private subscriber: Redis | undefined;
  /** Wanted: handlers per full channel name. */
  private readonly channels = new Map<string, Set<Subscription>>();
  /** Have: channels subscribed on the Redis connection. */
  private readonly subscribed = new Set<string>();
  /** Per channel, the last SUBSCRIBE/UNSUBSCRIBE in flight, so they apply in call order. */
  private readonly syncs = new Map<string, Promise<void>>();
  private publisherWasReady = false;

  constructor(options: RedisPubSubOptions) {
    this.prefix = options.prefix ?? 'shop:pubsub:';
    this.logger = options.logger ?? createLogger('pubsub');
    ({ client: this.publisher, owned: this.ownsPublisher } = openRedis(options.connection, this.logger, 'pubsub', {
      failFast: true,
    }));
    this.publisher.once('ready', () => (this.publisherWasReady = true));
    if (this.publisher.status === 'ready') this.publisherWasReady = true;
  }

  /** Fails at once while Redis is unreachable (the message is lost; subscribers hear of the gap later). */
  async publish(channel: string, message: string): Promise<void> {
    // before the first connection, a publish waits for it (start-up); after one was lost, it fails at once
    if (this.publisher.status !== 'ready' && this.publisherWasReady)
      throw new UnavailableError(`Redis unreachable (connection ${this.publisher.status}): not published`);
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(
    channel: string,
    handler: (message: string) => void,
    options: { onGap?: () => void } = {},
  ): Promise<() => Promise<void>> {
    const fullChannel = this.prefix + channel;
    const subscription: Subscription = { handler, onGap: options.onGap };
    let subscriptions = this.channels.get(fullChannel);
    if (!subscriptions) this.channels.set(fullChannel, (subscriptions = new Set()));
    subscriptions.add(subscription);
    const unsubscribe = async () => {
      // Removed at once: nothing reaches the handler after this call, whatever Redis still sends.
      if (!subscriptions.delete(subscription)) return;
      if (subscriptions.size === 0 && this.channels.get(fullChannel) === subscriptions)
        this.channels.delete(fullChannel);
      await this.sync(fullChannel);
    };
    try {
      await this.sync(fullChannel);
    } catch (err) {
      await unsubscribe().catch(() => undefined);
      throw err;
    }
    return unsubscribe;
  }

  async close(): Promise<void> {
    this.channels.clear();
    await Promise.allSettled(this.syncs.values());
    if (this.subscriber) await quitRedis(this.subscriber);
    if (this.ownsPublisher) await quitRedis(this.publisher);
  }

  private subscriberConnection(): Redis {
    if (!this.subscriber) {
      const subscriber = this.publisher.duplicate();
      subscriber.on('error', (err: Error) =>
        this.logger.warn({ err, component: 'pubsub' }, 'Redis subscriber connection error'),
      );
      // A dropped connection loses what is published meanwhile (here and, while Redis is down, everywhere):
      // subscribers hear of the gap when it drops (copies kept from then on may miss changes) and again when
      // it is back (ioredis subscribes again by itself), after which messages flow again.
      let dropped = false;
      const gap = (why: string) => {
        this.logger.info({ component: 'pubsub', why }, 'pub/sub messages may be lost: subscribers told');
        for (const subscriptions of this.channels.values())
          for (const s of [...subscriptions]) if (s.onGap) deliver(s.onGap, '', 'gap', this.logger);
      };
      subscriber.on('close', () => {
        if (dropped || this.subscriber !== subscriber) return;
        dropped = true;
        gap('Redis connection lost');
      });
      subscriber.on('ready', () => {
        if (!dropped) return;
        dropped = false;
        gap('Redis back');
      });
      subscriber.on('message', (fullChannel: string, message: string) => {
        const subscriptions = this.channels.get(fullChannel);
        if (!subscriptions) return;
        for (const s of [...subscriptions]) {
          if (subscriptions.has(s)) deliver(s.handler, message, fullChannel, this.logger);
        }
      });
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  /** Brings the Redis subscription of one channel in line with whether anyone wants it. */
  private sync(fullChannel: string): Promise<void> {
    const previous = this.syncs.get(fullChannel) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const wanted = (this.channels.get(fullChannel)?.size ?? 0) > 0;
        const active = this.subscribed.has(fullChannel);
        if (wanted && !active) {
          await this.subscriberConnection().subscribe(fullChannel);
          this.subscribed.add(fullChannel);
        } else if (!wanted && active && this.subscriber) {
          await this.subscriber.unsubscribe(fullChannel);
          this.subscribed.delete(fullChannel);
        }
      });
    this.syncs.set(fullChannel, next);
    next
      .finally(() => {
        if (this.syncs.get(fullChannel) === next) this.syncs.delete(fullChannel);
      })
      .catch(() => undefined);
    return next;
  }
}
