import { setTimeout as sleep } from 'node:timers/promises';
import { delayFor } from '../retry/retry.ts';

/** How a consumer retries an event its handler rejects before parking it. */
export interface RetryPolicy {
  /** Handler attempts before the event is parked (at least 1). */
  attempts: number;
  /** Delay after the first failed attempt; doubles after each further one. */
  baseDelayMs: number;
  /** Upper bound of any single delay. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
});

/** Fills a partial policy with the defaults and checks it. */
export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...partial };
  if (!Number.isInteger(p.attempts) || p.attempts < 1)
    throw new Error(`retry attempts must be a positive integer, got ${p.attempts}`);
  if (p.baseDelayMs < 0 || p.maxDelayMs < p.baseDelayMs)
    throw new Error('retry delays must satisfy 0 <= baseDelayMs <= maxDelayMs');
  return p;
}

/** Delay to wait after the `failures`-th consecutive failure (1-based): base * 2^(failures-1), capped (retry/retry.ts). */
export function backoffDelay(failures: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>): number {
  return delayFor({ baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, failures);
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * Whether an error says the database (not the event) is the problem: connection lost or refused, server
 * shutting down, too many connections. Such failures are retried without limit and never park an event,
 * so an outage does not fill the dead-letter table.
 */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    err.message,
  );
}

/** Waits `ms`, or rejects with the signal's reason when it aborts. */
export async function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal });
}

/** One-line text of an error for logs and the parked-events table. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
