import { BullMqScheduler } from './bullmq-scheduler.ts';
import type { SchedulerOptions } from './scheduler-options.ts';
import type { JobScheduler } from './types.ts';

export type { JobHandler, JobScheduler, ScheduleOptions } from './types.ts';
export type { RetryPolicy, SchedulerOptions } from './scheduler-options.ts';
export { BullMqScheduler, type BullMqSchedulerOptions } from './bullmq-scheduler.ts';

export interface JobSchedulerAdapterOptions extends SchedulerOptions {
  /** Redis URL (REDIS_URL); unset keeps the jobs in Postgres (embedded mode). */
  redisUrl?: string;
  /** The shop's database: holds the jobs (BullMQ's `bullmq` schema) when there is no Redis. */
  databaseUrl: string;
  /** Isolates schedulers sharing a Redis (BullMQ key prefix) or a database (queue-name prefix). */
  prefix?: string;
}

/** Background jobs on BullMQ: over Redis when a Redis URL is given, else over the shop's Postgres. */
export function createJobScheduler(options: JobSchedulerAdapterOptions): JobScheduler {
  const { redisUrl, databaseUrl, ...common } = options;
  return new BullMqScheduler({ ...common, backend: redisUrl ? { redisUrl } : { databaseUrl } });
}
