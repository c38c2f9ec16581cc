import type { Pool } from '../db/pool.ts';
import { BullMqScheduler } from './bullmq-scheduler.ts';
import { PostgresJobScheduler } from './postgres-job-scheduler.ts';
import type { SchedulerOptions } from './scheduler-options.ts';
import type { JobScheduler } from './types.ts';

export type { JobHandler, JobScheduler, ScheduleOptions } from './types.ts';
export type { RetryPolicy, SchedulerOptions } from './scheduler-options.ts';
export { BullMqScheduler, type BullMqSchedulerOptions } from './bullmq-scheduler.ts';
export { PostgresJobScheduler, type PostgresJobSchedulerOptions } from './postgres-job-scheduler.ts';

export interface JobSchedulerAdapterOptions extends SchedulerOptions {
  /** Redis URL (REDIS_URL); unset selects the Postgres table (embedded mode). */
  redisUrl?: string;
  /** Holds the jobs table when there is no Redis. */
  pool: Pool;
  /** Isolates schedulers sharing a Redis (BullMQ key prefix) or a jobs table (job-name prefix). */
  prefix?: string;
  /** Postgres only: how often the table is checked for jobs scheduled by other processes. */
  pollIntervalMs?: number;
}

/** Background jobs: BullMQ when a Redis URL is given, else the durable Postgres table. */
export function createJobScheduler(options: JobSchedulerAdapterOptions): JobScheduler {
  const { redisUrl, pool, pollIntervalMs, ...common } = options;
  return redisUrl
    ? new BullMqScheduler({ ...common, redisUrl })
    : new PostgresJobScheduler({ ...common, pool, pollIntervalMs });
}
