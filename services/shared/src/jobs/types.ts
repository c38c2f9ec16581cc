/**
 * Delayed and repeating background jobs (reservation expiry, payment reconciliation, rebuilds). A job runs once,
 * and again only after an attempt failed: the handler threw, or the backend could not record the run's completion
 * (a deadlock or a dropped connection), so handlers are idempotent.
 */
export type JobHandler<T = unknown> = (data: T) => Promise<void>;

export interface ScheduleOptions {
  /** Run no earlier than this many ms from now. */
  delayMs?: number;
  /** Idempotency key: scheduling the same (name, jobId) twice keeps one job. */
  jobId?: string;
}

export interface JobScheduler {
  /** Registers the handler that runs jobs of this name (call before start()). */
  register<T>(name: string, handler: JobHandler<T>): void;
  schedule<T>(name: string, data: T, options?: ScheduleOptions): Promise<void>;
  /** Removes a scheduled job that has not run yet. Returns whether one was removed. */
  cancel(name: string, jobId: string): Promise<boolean>;
  /** Runs `name` every `everyMs` (one schedule per name, however many processes call it). */
  repeat(name: string, everyMs: number): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
