import type { Request, RequestHandler } from 'express';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createLogger, type Logger } from '../observability/logger.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    /** Where this app's rate limits count (createHttpApp's `rateLimits`); unset = each limit in its own memory. */
    rateLimits?: RateLimitStore;
  }
}

/** How long a Redis command of the limiter may take before the limit is counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Where the shop's rate-limit counts live. With REDIS_URL, in Redis, so every process of the shop (several
 * gateways or checkout processes) shares one count per client; else in this process's memory (the embedded
 * mode is one process). While Redis is unreachable or slow, each limit counts in this process's memory (its
 * insurance limiter) rather than failing the request, and goes back to Redis once it answers again.
 */
export class RateLimitStore {
  /** true when the counts are shared through Redis. */
  readonly shared: boolean;
  private readonly client: Redis | undefined;
  private readonly owned: boolean;
  private readonly prefix: string;
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    opts: {
      /** REDIS_URL, or a client the caller owns (it must have been made with `enableOfflineQueue: false`). */
      redis?: string | Redis;
      /**
       * Separates shops sharing one Redis (e.g. the database name: every process of a shop shares its
       * database); keys are `shop:rate:<namespace>:<limit>:<client key>`.
       */
      namespace?: string;
      logger?: Logger;
    } = {},
  ) {
    const logger = opts.logger ?? createLogger('rate-limit');
    this.prefix = `shop:rate:${opts.namespace ?? 'shop'}`;
    this.shared = opts.redis !== undefined;
    if (typeof opts.redis === 'string') {
      // No offline queue and a short command timeout: a limit counted while Redis is away is counted in
      // memory at once instead of holding the request until Redis is back.
      this.client = new Redis(opts.redis, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      });
      this.owned = true;
      let down = false;
      this.client.on('error', (err: Error) => {
        if (down) return;
        down = true;
        logger.warn({ err }, 'Redis unreachable: rate limits count in this process only until it is back');
      });
      this.client.on('ready', () => {
        if (down) logger.info('Redis is back: rate limits are shared again');
        down = false;
      });
    } else {
      this.client = opts.redis;
      this.owned = false;
    }
  }

  /** Whether counts go to Redis right now (false without Redis, and while Redis is unreachable). */
  get sharing(): boolean {
    return this.client?.status === 'ready';
  }

  /**
   * The limiter named `name` (one per kind of limit: its own counts): `points` per `durationSeconds`
   * fixed window per key. The same name always gives the same limiter, with the terms it was first made with.
   */
  limiter(name: string, points: number, durationSeconds: number): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (limiter) return limiter;
    const keyPrefix = `${this.prefix}:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    limiter = this.client
      ? new RateLimiterRedis({
          storeClient: this.client,
          keyPrefix,
          points,
          duration: durationSeconds,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    this.limiters.set(name, limiter);
    return limiter;
  }

  async close(): Promise<void> {
    if (!this.client || !this.owned || this.client.status === 'end') return;
    await this.client.quit().catch(() => this.client!.disconnect());
  }
}

/** The store a request's app counts in: createHttpApp's, else one in memory for the middleware alone. */
export function storeOf(req: Request, own: () => RateLimitStore): RateLimitStore {
  return (req.app.locals.rateLimits as RateLimitStore | undefined) ?? own();
}

/** What one rate limit counts: its name, its fixed window and the most requests a key may make in it. */
export interface LimitTerms {
  name: string;
  windowMs: number;
  max: number;
}

/** The limiter that counts `terms` in `store` (windows in whole seconds, at least 1). */
export const limiterOf = (store: RateLimitStore, terms: LimitTerms): RateLimiterAbstract =>
  store.limiter(terms.name, terms.max, Math.max(1, Math.ceil(terms.windowMs / 1000)));

/** Whether a limiter's consume failed because the key is over its limit (not because it could not count). */
export const isLimitRefusal = (err: unknown): err is RateLimiterRes => err instanceof RateLimiterRes;

/** Seconds until a refused client may try again (at least 1), for Retry-After. */
export const retryAfterSeconds = (refusal: RateLimiterRes): number =>
  Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));

/** Answers 429 with Retry-After and `{ message }`. */
export function refuse(res: Parameters<RequestHandler>[1], refusal: RateLimiterRes, message: string): void {
  res.setHeader('Retry-After', String(retryAfterSeconds(refusal)));
  res.status(429).json({ message });
}

/**
 * Fixed-window rate limit per client address (or per `key`), counted in the app's RateLimitStore (shared
 * by every process through Redis when REDIS_URL is set). Answers 429 with Retry-After and a clear message.
 * A limiter that cannot count (a bug, not Redis being down: that falls back to memory) lets the request
 * through rather than failing it. Used on login, sign-up, payment and coupon endpoints.
 */
export function rateLimit(opts: {
  /** Names this limit's counts (`login`, `payment`...): two limits with one name share counts. */
  name: string;
  windowMs: number;
  max: number;
  message?: string;
  key?: (req: Request) => string;
  /** Count here rather than in the app's store. */
  store?: RateLimitStore;
  /**
   * Count only what was done: a request answered 4xx or 5xx gives its point back once answered (taken
   * before the handler runs, so parallel requests cannot slip past the limit).
   */
  countSuccessesOnly?: boolean;
}): RequestHandler {
  const message = opts.message ?? 'Too many attempts, please try again later';
  let own: RateLimitStore | undefined;
  const ownStore = () => (own ??= new RateLimitStore());
  return async (req, res, next) => {
    const limiter = limiterOf(opts.store ?? storeOf(req, ownStore), opts);
    const key = opts.key?.(req) ?? req.ip ?? 'unknown';
    try {
      await limiter.consume(key);
      if (opts.countSuccessesOnly)
        res.once('finish', () => {
          if (res.statusCode >= 400)
            limiter
              .reward(key)
              .catch((err: unknown) => req.log.warn({ err, limit: opts.name }, 'could not give a point back'));
        });
    } catch (err) {
      if (isLimitRefusal(err)) return refuse(res, err, message);
      req.log.error({ err, limit: opts.name }, 'rate limit could not count; letting the request through');
    }
    next();
  };
}
