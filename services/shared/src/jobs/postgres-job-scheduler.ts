import { randomUUID } from 'node:crypto';
import type { Pool } from '../db/pool.ts';
import { UnavailableError } from '../errors/errors.ts';
import { assertDelayMs, assertEveryMs, assertJobId, assertJobName, REPEAT_JOB_ID } from './job-keys.ts';
import {
  backoffDelayMs,
  resolveSchedulerOptions,
  type ResolvedSchedulerOptions,
  type SchedulerOptions,
} from './scheduler-options.ts';
import type { JobHandler, JobScheduler, ScheduleOptions } from './types.ts';

export interface PostgresJobSchedulerOptions extends SchedulerOptions {
  pool: Pool;
  /** Namespaces job names in the shared table (stored as `<prefix>:<name>`), as BullMQ's prefix does keys. */
  prefix?: string;
  /** How often the table is checked for due jobs; jobs scheduled from this instance wake it sooner. Default 250 ms. */
  pollIntervalMs?: number;
  /** A running job whose worker stopped renewing this lease (it crashed) is run again by another. Default 30 s. */
  leaseMs?: number;
}

interface ClaimedJob {
  id: string;
  name: string;
  job_id: string;
  data: unknown;
  attempts: number;
  repeat_every_ms: number | null;
}

const MS = `* interval '1 millisecond'`;

// Due jobs of the names this instance handles, plus jobs whose worker lost its lease. SKIP LOCKED lets any
// number of processes poll at once: a row another poller is claiming is passed over, never run twice.
const CLAIM = `
  WITH due AS (
    SELECT id FROM jobs.jobs
    WHERE name = ANY($1::text[])
      AND ((state = 'pending' AND run_at <= now()) OR (state = 'running' AND locked_until <= now()))
    ORDER BY run_at
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs.jobs AS j
  SET state = 'running', attempts = j.attempts + 1, locked_by = $3, locked_until = now() + $4::float8 ${MS}
  FROM due WHERE j.id = due.id
  RETURNING j.id::text AS id, j.name, j.job_id, j.data, j.attempts, j.repeat_every_ms`;

// Every outcome is written only while this instance still holds the job (a lost lease means another
// worker has it now), and says how soon the row is due again so this instance can wake for it.
const OWNED = `WHERE id = $1 AND locked_by = $2 AND state = 'running'`;
const DUE_IN = `RETURNING CASE WHEN state = 'pending' THEN greatest(0, extract(epoch FROM run_at - now()) * 1000)::float8 END AS due_in_ms`;
const NEXT_REPEAT = `greatest(run_at + repeat_every_ms ${MS}, now())`;
const COMPLETE = `UPDATE jobs.jobs SET state = 'completed', finished_at = now(), locked_by = NULL, locked_until = NULL ${OWNED} ${DUE_IN}`;
const RESCHEDULE_REPEAT = `
  UPDATE jobs.jobs SET state = 'pending', attempts = 0, run_at = ${NEXT_REPEAT}, last_error = coalesce($3::text, last_error),
    locked_by = NULL, locked_until = NULL
  ${OWNED} ${DUE_IN}`;
const RETRY = `
  UPDATE jobs.jobs SET state = 'pending', run_at = now() + $4::float8 ${MS}, last_error = $3, locked_by = NULL, locked_until = NULL
  ${OWNED} ${DUE_IN}`;
const FAIL = `
  UPDATE jobs.jobs SET state = 'failed', finished_at = now(), last_error = $3, locked_by = NULL, locked_until = NULL
  ${OWNED} ${DUE_IN}`;

// How soon the next pending job of these names is due, so a poll that found nothing can wake just in time
// (for jobs other processes scheduled, and for a timer that fired a little early).
const NEXT_DUE = `
  SELECT (extract(epoch FROM min(run_at) - now()) * 1000)::float8 AS due_in_ms
  FROM jobs.jobs WHERE state = 'pending' AND name = ANY($1::text[])`;

const HOUSEKEEPING_EVERY_MS = 60_000;

/**
 * Jobs in a Postgres table (embedded mode, no Redis): durable across restarts, shared by any number of
 * processes. Each instance polls for due jobs of the names it registered; repeat() is one
 * self-rescheduling row per name.
 */
export class PostgresJobScheduler implements JobScheduler {
  private readonly pool: Pool;
  private readonly options: ResolvedSchedulerOptions;
  private readonly prefix: string;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly workerId = randomUUID();
  /** By stored (prefixed) name. */
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly running = new Set<Promise<void>>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private leaseTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  /** The last poll filled every free slot, so more jobs may be due as soon as one finishes. */
  private saturated = false;
  private lastHousekeepingAt = 0;

  constructor(options: PostgresJobSchedulerOptions) {
    this.pool = options.pool;
    this.options = resolveSchedulerOptions(options);
    this.prefix = options.prefix ?? '';
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.leaseMs = options.leaseMs ?? 30_000;
    if (!(this.pollIntervalMs > 0)) throw new RangeError(`pollIntervalMs must be > 0, got ${this.pollIntervalMs}`);
    if (!(this.leaseMs >= 30)) throw new RangeError(`leaseMs must be >= 30, got ${this.leaseMs}`);
  }

  register<T>(name: string, handler: JobHandler<T>): void {
    assertJobName(name);
    const stored = this.stored(name);
    if (this.handlers.has(stored)) throw new Error(`A handler for job "${name}" is already registered`);
    this.handlers.set(stored, handler as JobHandler<unknown>);
    this.wakeIn(0);
  }

  async schedule<T>(name: string, data: T, options: ScheduleOptions = {}): Promise<void> {
    assertJobName(name);
    if (options.jobId !== undefined) assertJobId(options.jobId);
    const delayMs = options.delayMs ?? 0;
    assertDelayMs(delayMs);
    this.assertNotStopped();
    const stored = this.stored(name);
    await this.pool.query(
      `INSERT INTO jobs.jobs (name, job_id, data, run_at) VALUES ($1, $2, $3::jsonb, now() + $4::float8 ${MS})
       ON CONFLICT (name, job_id) DO NOTHING`,
      [stored, options.jobId ?? randomUUID(), JSON.stringify(data) ?? 'null', delayMs],
    );
    if (this.handlers.has(stored)) this.wakeAfterDue(delayMs);
  }

  async cancel(name: string, jobId: string): Promise<boolean> {
    assertJobName(name);
    assertJobId(jobId);
    this.assertNotStopped();
    const { rowCount } = await this.pool.query(
      `DELETE FROM jobs.jobs WHERE name = $1 AND job_id = $2 AND state = 'pending'`,
      [this.stored(name), jobId],
    );
    return (rowCount ?? 0) > 0;
  }

  async repeat(name: string, everyMs: number): Promise<void> {
    assertJobName(name);
    assertEveryMs(everyMs);
    this.assertNotStopped();
    const stored = this.stored(name);
    // The first run is due at once (as with BullMQ's `every`). Calling again only updates the interval,
    // bringing the next run forward when the interval shrank.
    await this.pool.query(
      `INSERT INTO jobs.jobs AS j (name, job_id, data, run_at, repeat_every_ms) VALUES ($1, $2, '{}', now(), $3)
       ON CONFLICT (name, job_id) DO UPDATE SET
         repeat_every_ms = EXCLUDED.repeat_every_ms,
         run_at = CASE WHEN j.state = 'pending' THEN least(j.run_at, now() + EXCLUDED.repeat_every_ms ${MS}) ELSE j.run_at END`,
      [stored, REPEAT_JOB_ID, everyMs],
    );
    if (this.handlers.has(stored)) this.wakeIn(0);
  }

  async start(): Promise<void> {
    this.assertNotStopped();
    if (this.state === 'running') return;
    // Fails start-up loudly when migrations have not created the table.
    await this.pool.query('SELECT 1 FROM jobs.jobs LIMIT 0');
    if (this.state !== 'idle') return; // stopped, or started by a concurrent call, meanwhile
    this.state = 'running';
    this.leaseTimer = setInterval(() => void this.renewLeases(), Math.floor(this.leaseMs / 3));
    // Resolves after the first poll, which claims whatever was already due.
    await this.poll();
  }

  /** Stops claiming jobs and waits for the running ones to finish and record their outcome. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    await Promise.allSettled([...this.running]);
    clearInterval(this.leaseTimer);
  }

  private stored(name: string): string {
    return this.prefix ? `${this.prefix}:${name}` : name;
  }

  private assertNotStopped(): void {
    if (this.state === 'stopped') throw new UnavailableError('This job scheduler was stopped; create a new one');
  }

  /** Polls in `delayMs` unless a poll is already due sooner. */
  private wakeIn(delayMs: number): void {
    if (this.state !== 'running') return;
    const at = Date.now() + Math.max(0, delayMs);
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      void this.poll();
    }, at - Date.now());
  }

  private poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.claimAndRun().finally(() => {
      this.polling = undefined;
      const again = this.pollAgain;
      this.pollAgain = false;
      this.wakeIn(again ? 0 : this.pollIntervalMs);
    });
    return this.polling;
  }

  private async claimAndRun(): Promise<void> {
    if (this.state !== 'running') return;
    try {
      const free = this.options.concurrency - this.running.size;
      this.saturated = free <= 0;
      if (free > 0 && this.handlers.size > 0) {
        const { rows } = await this.pool.query<ClaimedJob>(CLAIM, [
          [...this.handlers.keys()],
          free,
          this.workerId,
          this.leaseMs,
        ]);
        this.saturated = rows.length === free;
        for (const job of rows) {
          const run = this.run(job).finally(() => {
            this.running.delete(run);
            if (this.saturated) this.wakeIn(0);
          });
          this.running.add(run);
        }
        if (!this.saturated) {
          const { rows: next } = await this.pool.query<{ due_in_ms: number | null }>(NEXT_DUE, [
            [...this.handlers.keys()],
          ]);
          this.wakeAfterDue(next[0]?.due_in_ms);
        }
      }
      await this.housekeeping();
    } catch (err) {
      this.options.logger.error({ err }, 'Polling the jobs table failed; will try again');
    }
  }

  /** Runs one claimed job and records the outcome; never rejects. */
  private async run(job: ClaimedJob): Promise<void> {
    const { logger, retry } = this.options;
    const context = { job: job.name, jobId: job.job_id, attempt: job.attempts };
    try {
      let failure: unknown;
      // attempts counts claims: above the limit means the worker of the last allowed attempt vanished.
      if (job.attempts > retry.attempts)
        failure = new Error('The worker running the last attempt stopped before finishing it');
      else {
        try {
          await this.handlers.get(job.name)!(job.data);
        } catch (err) {
          failure = err ?? new Error('Job handler rejected');
        }
      }
      if (failure === undefined) {
        if (job.repeat_every_ms === null) await this.record(COMPLETE, job);
        else await this.record(RESCHEDULE_REPEAT, job, null);
        return;
      }
      const error = errorText(failure);
      if (job.attempts < retry.attempts) {
        logger.warn({ ...context, err: failure }, 'Job failed; will retry');
        await this.record(RETRY, job, error, backoffDelayMs(retry, job.attempts));
      } else if (job.repeat_every_ms !== null) {
        logger.error(
          { ...context, err: failure },
          'Repeating job failed every attempt; it runs again at its next interval',
        );
        await this.record(RESCHEDULE_REPEAT, job, error);
      } else {
        logger.error({ ...context, err: failure }, 'Job failed every attempt');
        await this.record(FAIL, job, error);
      }
    } catch (err) {
      // The row stays claimed; once its lease lapses a worker runs it again (at least once).
      logger.error({ ...context, err }, 'Recording a job outcome failed');
    }
  }

  /** Runs one of the outcome statements: $1 job, $2 this worker, then the statement's own parameters. */
  private async record(sql: string, job: ClaimedJob, ...params: unknown[]): Promise<void> {
    const { rows } = await this.pool.query<{ due_in_ms: number | null }>(sql, [job.id, this.workerId, ...params]);
    this.wakeAfterDue(rows[0]?.due_in_ms);
  }

  private wakeAfterDue(dueInMs: number | null | undefined): void {
    // Timers may fire up to a millisecond early, and a poll before run_at finds nothing.
    if (dueInMs !== null && dueInMs !== undefined) this.wakeIn(Math.ceil(dueInMs) + 1);
  }

  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      await this.pool.query(
        `UPDATE jobs.jobs SET locked_until = now() + $2::float8 ${MS} WHERE locked_by = $1 AND state = 'running'`,
        [this.workerId, this.leaseMs],
      );
    } catch (err) {
      this.options.logger.error({ err }, 'Renewing job leases failed');
    }
  }

  /** Drops completed jobs older than keepCompletedMs; their jobIds may then be scheduled again. */
  private async housekeeping(): Promise<void> {
    if (Date.now() - this.lastHousekeepingAt < HOUSEKEEPING_EVERY_MS) return;
    this.lastHousekeepingAt = Date.now();
    await this.pool.query(
      `DELETE FROM jobs.jobs WHERE state = 'completed' AND name = ANY($1::text[]) AND finished_at < now() - $2::float8 ${MS}`,
      [[...this.handlers.keys()], this.options.keepCompletedMs],
    );
  }
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return text.slice(0, 4_000);
}
