import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { UnavailableError } from '../errors/errors.ts';
import { assertDelayMs, assertEveryMs, assertJobId, assertJobName } from './job-keys.ts';
import { resolveSchedulerOptions, type ResolvedSchedulerOptions, type SchedulerOptions } from './scheduler-options.ts';
import type { JobHandler, JobScheduler, ScheduleOptions } from './types.ts';

export interface BullMqSchedulerOptions extends SchedulerOptions {
  redisUrl: string;
  /** BullMQ key prefix: schedulers with the same prefix share queues. Default `shop-jobs`. */
  prefix?: string;
}

/** BullMQ refuses custom job ids that are integers or contain ':'; encoding keeps every jobId usable and distinct. */
const toBullJobId = (jobId: string): string => `id-${encodeURIComponent(jobId)}`;

/** States in which a job has not started running, so cancel() may remove it. */
const NOT_STARTED = new Set(['delayed', 'waiting', 'prioritized', 'paused', 'waiting-children']);

/**
 * Jobs on BullMQ over Redis (distributed mode). One queue per job name (the name is the queue name), so
 * a jobId dedupes within its name, a slow job kind cannot starve another, and a process runs workers only
 * for the names it registered.
 */
export class BullMqScheduler implements JobScheduler {
  readonly prefix: string;
  private readonly options: ResolvedSchedulerOptions;
  /** Shared by every queue; each worker duplicates it for its blocking reads. */
  private readonly connection: Redis;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  /** The repeating schedules asked for (name -> every ms), upserted again when Redis comes back. */
  private readonly repeats = new Map<string, number>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';

  constructor(options: BullMqSchedulerOptions) {
    this.options = resolveSchedulerOptions(options);
    this.prefix = options.prefix ?? 'shop-jobs';
    // BullMQ requires maxRetriesPerRequest null: a worker's blocking read must outlast a Redis restart.
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', (err: Error) => this.options.logger.warn({ err }, 'Jobs Redis connection error'));
    // A Redis that comes back may have lost its data (restarted without persistence, a failover): the
    // repeating schedules (the sweeps) would then never run again. Upserting them is idempotent, so every
    // reconnect after a drop puts them back.
    let dropped = false;
    this.connection.on('close', () => {
      dropped = true;
    });
    this.connection.on('ready', () => {
      if (!dropped || this.state === 'stopped') return;
      dropped = false;
      void this.restoreRepeats();
    });
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
    // Upserting by id keeps one schedule however many processes call this.
    await this.queue(name).upsertJobScheduler(name, { every: everyMs }, { name, data: {}, opts: this.jobOptions() });
  }

  register<T>(name: string, handler: JobHandler<T>): void {
    assertJobName(name);
    if (this.handlers.has(name)) throw new Error(`A handler for job "${name}" is already registered`);
    this.handlers.set(name, handler as JobHandler<unknown>);
    if (this.state === 'running') this.startWorker(name);
  }

  async schedule<T>(name: string, data: T, options: ScheduleOptions = {}): Promise<void> {
    assertJobName(name);
    if (options.jobId !== undefined) assertJobId(options.jobId);
    if (options.delayMs !== undefined) assertDelayMs(options.delayMs);
    await this.queue(name).add(name, data ?? null, {
      ...this.jobOptions(),
      delay: options.delayMs,
      jobId: options.jobId === undefined ? undefined : toBullJobId(options.jobId),
    });
  }

  async cancel(name: string, jobId: string): Promise<boolean> {
    assertJobName(name);
    assertJobId(jobId);
    const queue = this.queue(name);
    const job = await queue.getJob(toBullJobId(jobId));
    if (!job?.id || !NOT_STARTED.has(await job.getState())) return false;
    // 0 when a worker took the job in the meantime: it has started, so it was not cancelled.
    return (await queue.remove(job.id)) === 1;
  }

  async repeat(name: string, everyMs: number): Promise<void> {
    assertJobName(name);
    assertEveryMs(everyMs);
    this.repeats.set(name, everyMs);
    await this.upsertRepeat(name, everyMs);
  }

  async start(): Promise<void> {
    if (this.state === 'stopped') throw new UnavailableError('This job scheduler was stopped; create a new one');
    if (this.state === 'running') return;
    this.state = 'running';
    for (const name of this.handlers.keys()) this.startWorker(name);
    await Promise.all([...this.workers.values()].map((w) => w.waitUntilReady()));
  }

  /** Waits for running jobs to finish, then closes every connection. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    if (this.connection.status !== 'end') await this.connection.quit().catch(() => this.connection.disconnect());
  }

  private jobOptions(): JobsOptions {
    const { retry, keepCompletedMs } = this.options;
    return {
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: { age: Math.ceil(keepCompletedMs / 1_000) },
      // Failed jobs stay for operators to inspect, within a bound (a failing repeat adds one per run).
      removeOnFail: { count: 1_000 },
    };
  }

  private queue(name: string): Queue {
    if (this.state === 'stopped') throw new UnavailableError('This job scheduler was stopped; create a new one');
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', (err: Error) => this.options.logger.error({ err, job: name }, 'Job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private startWorker(name: string): void {
    const handler = this.handlers.get(name);
    if (!handler || this.workers.has(name)) return;
    const { logger, concurrency, retry } = this.options;
    const worker = new Worker(name, async (job: Job) => handler(job.data), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency,
    });
    worker.on('failed', (job: Job | undefined, err: Error) => {
      const finalAttempt = (job?.attemptsMade ?? 0) >= retry.attempts;
      logger[finalAttempt ? 'error' : 'warn'](
        { err, job: name, jobId: job?.id, attemptsMade: job?.attemptsMade },
        finalAttempt ? 'Job failed every attempt' : 'Job failed; will retry',
      );
    });
    worker.on('error', (err: Error) => logger.error({ err, job: name }, 'Job worker error'));
    this.workers.set(name, worker);
  }
}
