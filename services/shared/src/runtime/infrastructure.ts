import path from 'node:path';
import type pg from 'pg';
import { TokenService } from '../auth/tokens.ts';
import { BoundUserDirectory } from '../auth/user-directory.ts';
import { createEventBus, waitForProjection } from '../bus/index.ts';
import { createCache, createPubSub } from '../cache/index.ts';
import type { Cache, PubSub } from '../cache/types.ts';
import { jwtSecretWeakness, STRONG_SECRET_MIN_LENGTH, type Config } from '../config/config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../db/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { PostgresEventStore } from '../eventstore/postgres-event-store.ts';
import { RateLimitStore } from '../http/rate-limit.ts';
import { createJobScheduler } from '../jobs/index.ts';
import { createMailer } from '../mail/mailer.ts';
import type { JobScheduler } from '../jobs/types.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import type { ServiceContext } from './service.ts';

export const SERVICE_SCHEMAS = ['accounts', 'catalog', 'checkout', 'orders'] as const;

export interface DependencyHealth {
  name: string;
  ok: boolean;
  adapter: string;
  detail?: string;
}

/** Adapters chosen from configuration, plus the ServiceContext built on them. */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  pool: pg.Pool;
  databaseUrl: string;
  cache: Cache;
  pubsub: PubSub;
  jobs: JobScheduler;
  /** Rate-limit counts: in Redis (shared by the shop's processes) with REDIS_URL, else in memory. */
  rateLimits: RateLimitStore;
  bus: ReturnType<typeof createEventBus>;
  context: ServiceContext;
  health(): Promise<DependencyHealth[]>;
  close(): Promise<void>;
}

async function timed<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One loud line at start when JWT_SECRET is weak (production refuses to start instead, in loadConfig):
 * with it anyone can mint admin and service tokens and derive the payment sandbox's secrets.
 */
export function warnIfWeakJwtSecret(config: Config, logger: Logger): void {
  const weakness = jwtSecretWeakness(config.JWT_SECRET);
  if (!weakness) return;
  logger.warn(
    `INSECURE JWT_SECRET: it ${weakness}; anyone can mint admin and service tokens with it. Development only: set JWT_SECRET to at least ${STRONG_SECRET_MIN_LENGTH} random characters (NODE_ENV=production refuses to start without)`,
  );
}

/**
 * Builds the adapters for one process from configuration: embedded Postgres unless DATABASE_URL, Redis
 * or in-process for cache/pub-sub/jobs, Kafka or the Postgres log for the bus. Runs migrations.
 */
/** The rate limits' namespace of a shop: its database (every process of a shop shares it, see RateLimitStore). */
export const rateLimitNamespace = (databaseUrl: string) => new URL(databaseUrl).pathname.slice(1);

export async function createInfrastructure(config: Config, service: string): Promise<Infrastructure> {
  const logger = createLogger(service, config.LOG_LEVEL);
  const metrics = new Metrics(service);
  warnIfWeakJwtSecret(config, logger);
  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.DATA_DIR, 'postgres'),
      database: 'shop',
      onLog: (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'),
    });
    databaseUrl = embedded.url;
    logger.info({ dataDir: path.join(config.DATA_DIR, 'postgres') }, 'embedded PostgreSQL started');
  }
  const pool = createPool(databaseUrl, config.DATABASE_POOL_SIZE);
  const { applied, adopted } = await migrate(pool);
  if (adopted.length) logger.info({ adopted }, "migrations recorded by the former runner adopted (knex's table)");
  if (applied.length) logger.info({ applied }, 'migrations applied');

  const stores = new Map<string, PostgresEventStore>();
  const eventStore = (schema: string) => {
    let s = stores.get(schema);
    if (!s) {
      s = new PostgresEventStore(pool, schema);
      s.onAppended((events) => {
        for (const e of events) metrics.eventsAppended.inc({ source: schema, type: e.type });
      });
      stores.set(schema, s);
    }
    return s;
  };
  for (const schema of SERVICE_SCHEMAS) eventStore(schema);

  const redisUrl = config.REDIS_URL;
  const cache = createCache({ redisUrl, prefix: 'shop:', logger });
  const pubsub = createPubSub({ redisUrl, prefix: 'shop:', logger });
  const jobs = createJobScheduler({ redisUrl, databaseUrl, prefix: 'shop', logger });
  // Keyed by database: the processes of one shop share it, and shops (or test runs) sharing a Redis do not.
  const rateLimits = new RateLimitStore({ redis: redisUrl, namespace: rateLimitNamespace(databaseUrl), logger });
  const kafkaBrokers = config.KAFKA_BROKERS?.split(',');
  // Projections get their own connections: in a sale's rush, request handlers queueing for the main pool
  // must not hold back the read models those same requests wait on (read-your-writes).
  const busPool = createPool(databaseUrl, Math.max(4, Math.ceil(config.DATABASE_POOL_SIZE / 3)));
  const bus = createEventBus({
    pool: busPool,
    kafkaBrokers,
    stores: [...stores.values()],
    logger,
    metrics,
    kafka: {
      sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
      outboxRetentionMs: config.OUTBOX_RETENTION_MINUTES * 60_000,
    },
  });

  // Every process checks a token's user with the accounts service (bound by the process's composition: the
  // accounts module in-process, else its client), so tokens of deleted or unknown users are refused everywhere.
  const users = new BoundUserDirectory();
  const mailer = createMailer(config, pool, logger);
  const context: ServiceContext = {
    config,
    pool,
    logger,
    metrics,
    tokens: new TokenService(config.JWT_SECRET, config.JWT_EXPIRES_IN, users),
    users,
    cache,
    pubsub,
    jobs,
    mailer,
    eventStore,
    waitForProjection: (args) => waitForProjection({ pool: busPool, timeoutMs: 5000, ...args }),
    clock: () => new Date(),
  };

  return {
    config,
    logger,
    metrics,
    pool,
    databaseUrl,
    cache,
    pubsub,
    jobs,
    rateLimits,
    bus,
    context,
    async health() {
      const check = async (name: string, adapter: string, fn: () => Promise<unknown>): Promise<DependencyHealth> => {
        try {
          await timed(fn(), 2000, name);
          return { name, ok: true, adapter };
        } catch (err) {
          return { name, ok: false, adapter, detail: (err as Error).message };
        }
      };
      return Promise.all([
        check('postgres', embedded ? 'embedded' : 'external', () => pool.query('SELECT 1')),
        check('cache', redisUrl ? 'redis' : 'in-process', () => cache.ping()),
        check('bus', kafkaBrokers ? 'kafka' : 'postgres-log', () => bus.health()),
      ]);
    },
    async close() {
      await bus.close().catch((err: unknown) => logger.warn({ err }, 'bus close'));
      await jobs.stop().catch((err: unknown) => logger.warn({ err }, 'jobs stop'));
      mailer.close();
      await pubsub.close().catch(() => undefined);
      await cache.close().catch(() => undefined);
      await rateLimits.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await busPool.end().catch(() => undefined);
      await embedded?.stop().catch((err: unknown) => logger.warn({ err }, 'embedded postgres stop'));
    },
  };
}
