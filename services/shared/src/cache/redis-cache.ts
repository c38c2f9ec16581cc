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

/** Hot read cache on Redis (distributed mode): shared by every process that uses the same prefix. */
export class RedisCache implements Cache {
  readonly prefix: string;
  private readonly client: Redis;
  private readonly owned: boolean;

  constructor(options: RedisCacheOptions) {
    this.prefix = options.prefix ?? 'shop:cache:';
    ({ client: this.client, owned: this.owned } = openRedis(
      options.connection,
      options.logger ?? createLogger('cache'),
      'cache',
    ));
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const ttlMs = ttlToMs(ttlSeconds);
    if (ttlMs === undefined) await this.client.set(this.prefix + key, value);
    else await this.client.set(this.prefix + key, value, 'PX', ttlMs);
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.del(...keys.map((k) => this.prefix + k));
  }

  async close(): Promise<void> {
    if (this.owned) await quitRedis(this.client);
  }
}
