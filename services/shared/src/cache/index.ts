import type { Logger } from '../observability/logger.ts';
import { MemoryCache } from './memory-cache.ts';
import { MemoryPubSub } from './memory-pubsub.ts';
import { RedisCache } from './redis-cache.ts';
import { RedisPubSub } from './redis-pubsub.ts';
import type { Cache, PubSub } from './types.ts';

export type { Cache, PubSub } from './types.ts';
export { MemoryCache, type MemoryCacheOptions } from './memory-cache.ts';
export { MemoryPubSub, type MemoryPubSubOptions } from './memory-pubsub.ts';
export { RedisCache, type RedisCacheOptions } from './redis-cache.ts';
export { RedisPubSub, type RedisPubSubOptions } from './redis-pubsub.ts';
export type { RedisConnection } from './redis-connection.ts';

export interface CacheAdapterOptions {
  /** Redis URL (REDIS_URL); unset selects the in-process adapter. */
  redisUrl?: string;
  /** Redis key / channel prefix; the in-process adapters are private to their instance and ignore it. */
  prefix?: string;
  logger?: Logger;
}

/** The hot read cache: Redis when a URL is given, else in-process (bounded, LRU). */
export function createCache(options: CacheAdapterOptions = {}): Cache {
  return options.redisUrl
    ? new RedisCache({ connection: options.redisUrl, prefix: options.prefix, logger: options.logger })
    : new MemoryCache();
}

/** Pub/sub: Redis when a URL is given, else in-process. */
export function createPubSub(options: CacheAdapterOptions = {}): PubSub {
  return options.redisUrl
    ? new RedisPubSub({ connection: options.redisUrl, prefix: options.prefix, logger: options.logger })
    : new MemoryPubSub({ logger: options.logger });
}
