import {
  createPostgresBackend,
  Queue,
  runMigrations,
  Worker,
  type IQueueBackend,
  type Job,
  type JobsOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { UnavailableError } from '../errors/errors.ts';
import { delayFor } from '../retry/retry.ts';
import { assertDelayMs, assertEveryMs, assertJobId, assertJobName } from './job-keys.ts';
import { resolveSchedulerOptions, type ResolvedSchedulerOptions, type SchedulerOptions } from './scheduler-options.ts';
import type { JobHandler, JobScheduler, ScheduleOptions } from './types.ts';

export interface BullMqSchedulerOptions extends SchedulerOptions {
  /** Where the queues live: Redis (distributed mode) or the shop's Postgres database (embedded default). */
  backend: { redisUrl: string } | { databaseUrl: string };
  /**
   * Schedulers with the same prefix share queues. Redis: the BullMQ key prefix (default `shop-jobs`).
   * Postgres: prepended to each queue name (`<prefix>.<name>`, ':' read as '.') in the one `bullmq` schema.
   */
  prefix?: string;
}

type AnyQueue = Queue<unknown, unknown, string, unknown, unknown, string, IQueueBackend, unknown>;
type AnyWorker = Worker<unknown, unknown, string, IQueueBackend, object, unknown>;

/** BullMQ refuses custom job ids that are integers or contain ':'; encoding keeps every jobId usable and distinct. */
const toBullJobId = (jobId: string): string => `id-${encodeURIComponent(jobId)}`;

/** States in which a job has not started running, so cancel() may remove it. */
const NOT_STARTED = new Set(['delayed', 'waiting', 'prioritized', 'paused', 'waiting-children']);

/** The schema BullMQ's PostgreSQL backend creates and migrates itself (runMigrations, at first use). */
const POSTGRES_SCHEMA = 'bullmq';
const MAX_POSTGRES_WORKERS = 8;
/**
 * Connections of the Postgres backend's own pool: each worker holds one for its LISTEN (8 in the whole shop: the
 * hold backstop, four checkout sweeps, shipments, mail, the tracking sweep), a running sweep one for its advisory
 * lock, and BullMQ's own queries need a few more even when every sweep runs at once. Opened on demand, closed after
 * a few idle seconds.
 */
const POSTGRES_POOL_SIZE = 2 * MAX_POSTGRES_WORKERS + 4;
/** 'error' listeners BullMQ adds to a shared pool per job name (its Queue and its Worker), with room to spare. */
const LISTENERS_PER_JOB_NAME = 3;
/**
 * Advisory lock class of a repeating job's run on Postgres (727002-727004 are taken by the outbox relays and
 * checkout; 727001 was the former migration runner's).
 */
const REPEAT_LOCK_CLASS = 727005;

/** The backend's own rows (bigint ids, ms timestamps) come back as pg's default strings, not the project's BigInt. */
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 5069
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Background jobs on BullMQ, one API in both run modes: over Redis in distributed mode, over the shop's
 * PostgreSQL (BullMQ's PostgreSQL backend: SKIP LOCKED claims, LISTEN/NOTIFY wake-ups) in the embedded
 * default, which has no Redis. One queue per job name, so a jobId dedupes within its name, a slow job kind
 * cannot starve another, and a process runs workers only for the names it registered.
 */
export class BullMqScheduler implements JobScheduler {
  readonly prefix: string;
  private readonly options: ResolvedSchedulerOptions;
  /** Redis: shared by every queue; each worker duplicates it for its blocking reads. */
  private readonly redis: Redis | undefined;
  /** Postgres: one pool for every queue and worker of this scheduler. */
  private readonly pgPool: pg.Pool | undefined;
  private migrated: Promise<void> | undefined;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly queues = new Map<string, AnyQueue>();
  private readonly workers = new Map<string, AnyWorker>();
  /** The repeating schedules asked for (name -> every ms), upserted again when Redis comes back. */
  private readonly repeats = new Map<string, number>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';

  constructor(options: BullMqSchedulerOptions) {
    this.options = resolveSchedulerOptions(options);
    this.prefix = options.prefix ?? 'shop-jobs';
    if ('redisUrl' in options.backend) {
      // BullMQ requires maxRetriesPerRequest null: a worker's blocking read must outlast a Redis restart.
      const redis = new Redis(options.backend.redisUrl, { maxRetriesPerRequest: null });
      this.redis = redis;
      redis.on('error', (err: Error) => this.options.logger.warn({ err }, 'Jobs Redis connection error'));
      // A Redis that comes back may have lost its data (restarted without persistence, a failover): the
      // repeating schedules (the sweeps) would then never run again. Upserting them is idempotent, so every
      // reconnect after a drop puts them back.
      let dropped = false;
      redis.on('close', () => {
        dropped = true;
      });
      redis.on('ready', () => {
        if (!dropped || this.state === 'stopped') return;
        dropped = false;
        void this.restoreRepeats();
      });
    } else {
      const pool = new pg.Pool({
        connectionString: options.backend.databaseUrl,
        max: POSTGRES_POOL_SIZE,
        idleTimeoutMillis: 2_000,
        application_name: 'shop-jobs',
        // BullMQ's backend names its schema nowhere in its SQL; the search path selects it.
        options: `-c search_path=${POSTGRES_SCHEMA}`,
        // Lets a worker block on LISTEN for long: a silently dropped connection is noticed.
        keepAlive: true,
        types: PG_TYPES,
      });
      // An idle or LISTENing client losing its connection must not crash the process; BullMQ reconnects.
      pool.on('error', (err) => this.options.logger.warn({ err }, 'Jobs Postgres connection error'));
      pool.on('connect', (client) => client.on('error', () => undefined));
      // Each BullMQ Queue and Worker on this pool adds an 'error' listener to it (and never removes it, since
      // it does not own the pool): two per job name, past Node's default of 10 with five names (a leak warning
      // in every whole shop). Bounded by the names this scheduler takes, so the bound says so.
      pool.setMaxListeners(1 + LISTENERS_PER_JOB_NAME * MAX_POSTGRES_WORKERS);
      this.pgPool = pool;
    }
  }

  private async restoreRepeats(): Promise<void> {
    for (const [name, everyMs] of this.repeats) {
      try {
        await this.upsertRepeat(name, everyMs);
      } catch (err) {
        this.options.logger.warn({ err, job: name }, 'Could not restore a repeating job after Redis came back');
      }
    }
    if (this.repeats.size > 0)
      this.options.logger.info({ jobs: [...this.repeats.keys()] }, 'Redis back: repeating jobs scheduled again');
  }

  private async upsertRepeat(name: string, everyMs: number): Promise<void> {
    const queue = await this.queue(name);
    // Upserting by id keeps one schedule however many processes call this.
    await queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {}, opts: this.jobOptions() });
    // One run at a time across every process: a run that outlasts its interval is not joined by the next one.
    // Redis: BullMQ's global concurrency. Postgres: each run holds an advisory lock (startWorker), which a
    // process killed mid-run gives up with its connection; BullMQ's global concurrency would instead count that
    // run as active until its job lock lapsed and the stalled check ran (up to a minute without a sweep after a
    // kill -9: the crash test saw a coupon use left held), so it is off there.
    if (this.redis) await queue.setGlobalConcurrency(1);
    else await queue.removeGlobalConcurrency();
  }

  register<T>(name: string, handler: JobHandler<T>): void {
    assertJobName(name);
    if (this.handlers.has(name)) throw new Error(`A handler for job "${name}" is already registered`);
    if (this.pgPool && this.handlers.size >= MAX_POSTGRES_WORKERS)
      throw new RangeError(`At most ${MAX_POSTGRES_WORKERS} job names per scheduler on Postgres`);
    this.handlers.set(name, handler as JobHandler<unknown>);
    if (this.state === 'running')
      this.startWorker(name).catch((err: unknown) =>
        this.options.logger.error({ err, job: name }, 'Could not start a job worker'),
      );
  }

  async schedule<T>(name: string, data: T, options: ScheduleOptions = {}): Promise<void> {
    assertJobName(name);
    if (options.jobId !== undefined) assertJobId(options.jobId);
    if (options.delayMs !== undefined) assertDelayMs(options.delayMs);
    const queue = await this.queue(name);
    await queue.add(name, data ?? null, {
      ...this.jobOptions(),
      delay: options.delayMs,
      jobId: options.jobId === undefined ? undefined : toBullJobId(options.jobId),
    });
  }

  async cancel(name: string, jobId: string): Promise<boolean> {
    assertJobName(name);
    assertJobId(jobId);
    const queue = await this.queue(name);
    const job = await queue.getJob(toBullJobId(jobId));
    if (!job?.id || !NOT_STARTED.has(await job.getState())) return false;
    // 0 when a worker took the job in the meantime: it has started, so it was not cancelled.
    return (await queue.remove(job.id)) === 1;
  }

  async repeat(name: string, everyMs: number): Promise<void> {
    assertJobName(name);
    assertEveryMs(everyMs);
    this.assertNotStopped();
    this.repeats.set(name, everyMs);
    await this.upsertRepeat(name, everyMs);
  }

  async start(): Promise<void> {
    this.assertNotStopped();
    if (this.state === 'running') return;
    // Fails start-up loudly when the backend cannot be reached or its schema not created.
    await this.backendReady();
    if (this.state !== 'idle') return; // stopped, or started by a concurrent call, meanwhile
    this.state = 'running';
    await Promise.all([...this.handlers.keys()].map((name) => this.startWorker(name)));
  }

  /** Waits for running jobs to finish, then closes every connection. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    if (this.redis && this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis?.disconnect());
    await this.pgPool?.end();
  }

  private assertNotStopped(): void {
    if (this.state === 'stopped') throw new UnavailableError('This job scheduler was stopped; create a new one');
  }

  private jobOptions(): JobsOptions {
    const { retry, keepCompletedMs } = this.options;
    return {
      attempts: retry.attempts,
      // The workers compute the wait (backoffStrategy below) by the project's one backoff curve.
      backoff: { type: 'custom' },
      removeOnComplete: { age: Math.ceil(keepCompletedMs / 1_000) },
      // Failed jobs stay for operators to inspect, within a bound (a failing repeat adds one per run).
      removeOnFail: { count: 1_000 },
    };
  }

  /** Postgres: creates or upgrades BullMQ's schema once (advisory-locked, so concurrent processes are safe). */
  private backendReady(): Promise<void> {
    const pool = this.pgPool;
    if (!pool) return Promise.resolve();
    this.migrated ??= (async () => {
      const client = await pool.connect();
      try {
        await runMigrations(client, POSTGRES_SCHEMA);
      } finally {
        client.release();
      }
    })().catch((err: unknown) => {
      this.migrated = undefined; // the next call tries again
      throw err;
    });
    return this.migrated;
  }

  private connectionOptions() {
    return this.redis ? { connection: this.redis, prefix: this.prefix } : { connection: this.pgPool! };
  }

  private queueName(name: string): string {
    // Queue names cannot hold ':' (a Redis key separator even here), so a prefix's colons become dots.
    return this.redis ? name : `${this.prefix.replaceAll(':', '.')}.${name}`;
  }

  private async queue(name: string): Promise<AnyQueue> {
    this.assertNotStopped();
    await this.backendReady();
    this.assertNotStopped();
    let queue = this.queues.get(name);
    if (!queue) {
      queue = (
        this.redis
          ? new Queue(this.queueName(name), this.connectionOptions())
          : new Queue(this.queueName(name), { connection: this.pgPool! }, createPostgresBackend)
      ) as AnyQueue;
      queue.on('error', (err: Error) => this.options.logger.error({ err, job: name }, 'Job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async startWorker(name: string): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler || this.workers.has(name)) return;
    const { logger, concurrency, retry } = this.options;
    const pool = this.pgPool;
    const processor = async (job: Job) => {
      if (!pool || !(job.repeatJobKey || this.repeats.has(name))) return handler(job.data);
      // BullMQ's global concurrency is not strict on its Postgres backend (two runs of a sweep were seen at
      // once): a run of a repeating job holds an advisory lock, and a run that finds it held is skipped (the
      // next interval comes soon), so one run at a time across every process holds here too.
      const client = await pool.connect();
      const key = [REPEAT_LOCK_CLASS, this.queueName(name)];
      try {
        const got = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', key);
        if (!got.rows[0]?.got) return undefined;
        try {
          return await handler(job.data);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', key);
        }
      } finally {
        client.release();
      }
    };
    const workerOptions = {
      concurrency,
      drainDelay: this.options.idleRecheckMs / 1_000,
      settings: { backoffStrategy: (attemptsMade: number) => delayFor({ baseMs: retry.backoffMs }, attemptsMade) },
    };
    const worker = (
      this.redis
        ? new Worker(this.queueName(name), processor, { ...workerOptions, ...this.connectionOptions() })
        : new Worker(
            this.queueName(name),
            processor,
            { ...workerOptions, connection: this.pgPool! },
            createPostgresBackend,
          )
    ) as AnyWorker;
    worker.on('failed', (job: Job | undefined, err: Error) => {
      const finalAttempt = (job?.attemptsMade ?? 0) >= retry.attempts;
      logger[finalAttempt ? 'error' : 'warn'](
        { err, job: name, jobId: job?.id, attemptsMade: job?.attemptsMade },
        finalAttempt ? 'Job failed every attempt' : 'Job failed; will retry',
      );
    });
    worker.on('error', (err: Error) => logger.error({ err, job: name }, 'Job worker error'));
    this.workers.set(name, worker);
    await worker.waitUntilReady();
  }
}
