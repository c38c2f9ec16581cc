import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long to wait between attempts: `baseMs`, then `factor` times the last wait, never above `maxMs`.
 * `jitter` (0 to 1) takes up to that share off each wait at random, so many waiters do not retry in step.
 * The one backoff curve of the project: the bus, the jobs, the event store's conflict retry, pending
 * settlements and refunds, and the infrastructure timers all wait by it.
 */
export interface Backoff {
  baseMs: number;
  /** Default 2 (doubling). */
  factor?: number;
  /** Default: no bound. */
  maxMs?: number;
  /** Default 0 (none). */
  jitter?: number;
}

/** Checks a backoff at construction, so nonsense fails where it is written rather than at the first failure. */
export function assertBackoff(backoff: Backoff): void {
  const { baseMs, factor = 2, maxMs = Infinity, jitter = 0 } = backoff;
  if (!(baseMs >= 0) || !Number.isFinite(baseMs)) throw new RangeError(`backoff baseMs must be >= 0, got ${baseMs}`);
  if (!(factor >= 1) || !Number.isFinite(factor)) throw new RangeError(`backoff factor must be >= 1, got ${factor}`);
  if (!(maxMs >= baseMs)) throw new RangeError(`backoff maxMs must be >= baseMs (${baseMs}), got ${maxMs}`);
  if (!(jitter >= 0 && jitter <= 1)) throw new RangeError(`backoff jitter must be from 0 to 1, got ${jitter}`);
}

/**
 * The wait after the `failures`-th consecutive failure (1-based): min(maxMs, baseMs * factor^(failures-1)),
 * less up to `jitter` of it. 0 failures (or fewer) waits like the first.
 */
export function delayFor(backoff: Backoff, failures: number, random: () => number = Math.random): number {
  const { baseMs, factor = 2, maxMs = Infinity, jitter = 0 } = backoff;
  const exponent = Math.max(0, Math.floor(failures) - 1);
  const delay = Math.min(maxMs, baseMs * factor ** exponent);
  return jitter > 0 ? delay * (1 - jitter * random()) : delay;
}

export interface RetryOptions extends Backoff {
  /** Attempts in all, the first included (at least 1). Default: until it succeeds or shouldRetry says no. */
  attempts?: number;
  /** Whether this failure may be retried; default every failure. `attempt` is the one that failed (1-based). */
  shouldRetry?: (err: unknown, attempt: number) => boolean;
  /** Told before each wait. */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  /** Aborting stops the waiting: retry() rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Runs `fn` until it resolves, waiting by the backoff between failed attempts. Rethrows the last failure when
 * the attempts are used up or shouldRetry refuses it. `fn` gets the attempt number (1-based).
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { attempts = Infinity, shouldRetry = () => true, onRetry, signal } = options;
  assertBackoff(options);
  if (!(attempts >= 1)) throw new RangeError(`retry attempts must be >= 1, got ${attempts}`);
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !shouldRetry(err, attempt)) throw err;
      const delayMs = delayFor(options, attempt);
      onRetry?.(err, attempt, delayMs);
      signal?.throwIfAborted();
      if (delayMs > 0)
        await sleep(delayMs, undefined, { signal }).catch((err: unknown) => {
          throw signal?.aborted ? signal.reason : err;
        });
    }
  }
}
