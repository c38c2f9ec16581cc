import type { Redis } from 'ioredis';
import { createLogger, type Logger } from '../observability/logger.ts';
import { openRedis, quitRedis, type RedisConnection } from './redis-connection.ts';
import type { Cache } from './types.ts';
import { ttlToMs } from './ttl.ts';

export interface RedisCacheOptions {
  connection: RedisConnection;
  /** Prepended to every key, so several caches (or test runs) share one Redis. Default `shop:cache:`. */
  prefix?: string;
  logger?: Logger;
}

/**
 * Hot read cache on Redis (distributed mode): shared by every process that uses the same prefix.
 *
 * A cache, not a store: while Redis is unreachable a read is a miss at once (the caller reads Postgres) and
 * a write is skipped, instead of queueing behind ioredis's reconnects. A skipped write may leave a stale
 * value in Redis (an invalidation that did not happen), so its key is remembered and deleted when the
 * connection is back, before this cache answers from Redis again.
 */
export class RedisCache implements Cache {
  readonly prefix: string;
  private readonly client: Redis;
  private readonly owned: boolean;
  private readonly logger: Logger;
  /** Keys whose set/del did not reach Redis: deleted once it is back. */
  private readonly unsynced = new Set<string>();
  private repairing: Promise<void> | undefined;
  private downSince: number | undefined;
  /** Until the first connection, commands wait for it (start-up); after one was lost, they fail fast. */
  private everReady = false;

  constructor(options: RedisCacheOptions) {
    this.prefix = options.prefix ?? 'shop:cache:';
    this.logger = options.logger ?? createLogger('cache');
    ({ client: this.client, owned: this.owned } = openRedis(options.connection, this.logger, 'cache', {
      failFast: true,
    }));
    this.everReady = this.client.status === 'ready'; // a borrowed client may be connected already
    this.client.on('ready', () => {
      this.everReady = true;
      if (this.unsynced.size > 0) this.repairing ??= this.repair();
    });
  }

  async get(key: string): Promise<string | null> {
    if (!(await this.usable())) return null;
    try {
      return await this.client.get(this.prefix + key);
    } catch (err) {
      this.unavailable(err);
      return null;
    }
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const ttlMs = ttlToMs(ttlSeconds);
    await this.write([key], () =>
      ttlMs === undefined
        ? this.client.set(this.prefix + key, value)
        : this.client.set(this.prefix + key, value, 'PX', ttlMs),
    );
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.write(keys, () => this.client.del(...keys.map((k) => this.prefix + k)));
  }

  async ping(): Promise<void> {
    if (this.client.status !== 'ready' && this.everReady)
      throw new Error(`Redis unreachable (connection ${this.client.status})`);
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.owned) await quitRedis(this.client);
  }

  /** Whether Redis may be asked now: connected, and no skipped write left to undo. */
  private async usable(): Promise<boolean> {
    if (this.client.status !== 'ready' && this.everReady) return false;
    if (this.unsynced.size > 0) {
      this.repairing ??= this.repair();
      await this.repairing;
    }
    return this.unsynced.size === 0;
  }

  private async write(keys: string[], command: () => Promise<unknown>): Promise<void> {
    if (await this.usable()) {
      try {
        await command();
        return;
      } catch (err) {
        this.unavailable(err);
      }
    }
    for (const k of keys) this.unsynced.add(k);
  }

  /** Deletes the keys whose writes were skipped (their Redis values may be stale). */
  private async repair(): Promise<void> {
    try {
      const keys = [...this.unsynced];
      if (keys.length > 0 && this.client.status === 'ready') {
        await this.client.del(...keys.map((k) => this.prefix + k));
        for (const k of keys) this.unsynced.delete(k);
        this.logger.info(
          { component: 'cache', keys: keys.length, downMs: this.downSince && Date.now() - this.downSince },
          'Redis back: dropped the cache entries written while it was unreachable',
        );
        this.downSince = undefined;
      }
    } catch (err) {
      this.unavailable(err);
    } finally {
      this.repairing = undefined;
    }
  }

  private unavailable(err: unknown): void {
    if (this.downSince !== undefined) return; // logged once per outage; ioredis logs its reconnects
    this.downSince = Date.now();
    this.logger.warn({ err, component: 'cache' }, 'Redis unreachable: cache reads go to Postgres');
  }
}
