import { createLogger, type Logger } from '../observability/logger.ts';

/** How a failing job is retried: `attempts` runs in all, waiting backoffMs, then 2x, 4x ... between them (retry/retry.ts). */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** Options both schedulers take, with the same meaning. */
export interface SchedulerOptions {
  /** Jobs one scheduler instance runs at the same time. Default 4. */
  concurrency?: number;
  /** Default: 5 attempts, 1 s backoff doubling each time. */
  retry?: Partial<RetryPolicy>;
  /** How long a completed job is kept; meanwhile scheduling its jobId again is still a no-op. Default 24 h. */
  keepCompletedMs?: number;
  /**
   * How long an idle worker waits before it looks for jobs again when nothing wakes it (BullMQ's drainDelay): the
   * most a job it was not woken for waits, e.g. a delayed job whose wake-up it missed. Default 5 s.
   */
  idleRecheckMs?: number;
  logger?: Logger;
}

export type ResolvedSchedulerOptions = Required<Omit<SchedulerOptions, 'retry'>> & { retry: RetryPolicy };

/** Fills in the defaults and rejects nonsense values at construction rather than at the first failure. */
export function resolveSchedulerOptions(options: SchedulerOptions): ResolvedSchedulerOptions {
  const resolved: ResolvedSchedulerOptions = {
    concurrency: options.concurrency ?? 4,
    retry: { attempts: 5, backoffMs: 1_000, ...options.retry },
    keepCompletedMs: options.keepCompletedMs ?? 24 * 60 * 60 * 1_000,
    idleRecheckMs: options.idleRecheckMs ?? 5_000,
    logger: options.logger ?? createLogger('jobs'),
  };
  const positiveInteger = (value: number, what: string, min = 1) => {
    if (!Number.isInteger(value) || value < min)
      throw new RangeError(`${what} must be an integer >= ${min}, got ${value}`);
  };
  positiveInteger(resolved.concurrency, 'concurrency');
  positiveInteger(resolved.retry.attempts, 'retry.attempts');
  positiveInteger(resolved.retry.backoffMs, 'retry.backoffMs', 0);
  positiveInteger(resolved.keepCompletedMs, 'keepCompletedMs', 0);
  positiveInteger(resolved.idleRecheckMs, 'idleRecheckMs', 10);
  return resolved;
}
