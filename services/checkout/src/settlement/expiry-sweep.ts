import type { Pool } from '@shop/shared/db/pool';
import type { Logger } from '@shop/shared/observability/logger';
import { delayFor } from '@shop/shared/retry/retry';
import { overdueOpenOrders } from '../payment/read-models/payment-orders-projection.ts';
import type { Payments } from '../payment/payments.ts';

/** Orders looked at per sweep. */
export const SWEEP_BATCH = 200;
/** After this many failed tries one order is reported once, at error level; it is still retried. */
export const REPORT_AFTER_FAILURES = 5;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 30 * 60_000;
/** How many order ids a summary log line carries. */
const SAMPLE = 10;

/** Wait before the next try of an order that failed `failures` times: 30 s, doubling, at most 30 min. */
export const retryDelayMs = (failures: number) => delayFor({ baseMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS }, failures);

export interface SweepResult {
  paid: number;
  expired: number;
  /** Expired because the provider has no such order (e.g. a sandbox that lost it). */
  expiredUnknown: number;
  unchanged: number;
  failed: number;
}

/**
 * One run of the expiry sweep (RECONCILE_JOB): settles the open orders whose hold ran out, oldest due
 * first. An order the provider fails on is not retried at every sweep: it waits, with a growing delay, in
 * checkout.expiry_sweep_failures, so one bad order (or hundreds) never holds up the orders behind it.
 * Logging is per sweep, not per order, except one error line for an order that has failed
 * REPORT_AFTER_FAILURES times.
 */
export async function sweepExpiredOrders(deps: {
  pool: Pool;
  payments: Pick<Payments, 'settleExpired'>;
  clock: () => Date;
  logger: Logger;
  batchSize?: number;
}): Promise<SweepResult> {
  const { pool, payments, clock, logger } = deps;
  const result: SweepResult = { paid: 0, expired: 0, expiredUnknown: 0, unchanged: 0, failed: 0 };
  const unknown: string[] = [];
  const failures: Array<{ razorpayOrderId: string; attempts: number; err: unknown }> = [];

  for (const { razorpayOrderId, failedAttempts } of await overdueOpenOrders(
    pool,
    clock(),
    0,
    deps.batchSize ?? SWEEP_BATCH,
  )) {
    try {
      const outcome = await payments.settleExpired(razorpayOrderId);
      if (outcome === 'expired-unknown') {
        result.expiredUnknown++;
        unknown.push(razorpayOrderId);
      } else result[outcome]++;
      if (failedAttempts > 0) {
        await pool.query('DELETE FROM checkout.expiry_sweep_failures WHERE razorpay_order_id = $1', [razorpayOrderId]);
      }
    } catch (err) {
      result.failed++;
      const attempts = failedAttempts + 1;
      await recordFailure(pool, razorpayOrderId, attempts, err, clock());
      failures.push({ razorpayOrderId, attempts, err });
      if (attempts > REPORT_AFTER_FAILURES) {
        logger.debug({ err, razorpayOrderId, attempts }, 'expiry sweep failed on an order again; retried later');
      }
    }
  }

  if (unknown.length) {
    logger.info(
      { count: unknown.length, razorpayOrderIds: unknown.slice(0, SAMPLE) },
      'expiry sweep: the payment provider has no record of these orders; expired them and released their holds',
    );
  }
  const summary = (list: typeof failures) => ({
    count: list.length,
    razorpayOrderIds: list.slice(0, SAMPLE).map((f) => f.razorpayOrderId),
    err: list[0]!.err,
  });
  const fresh = failures.filter((f) => f.attempts < REPORT_AFTER_FAILURES);
  if (fresh.length) {
    logger.warn(
      summary(fresh),
      'expiry sweep could not settle some orders; each is retried later, with a growing delay',
    );
  }
  // Reported once per order, at its REPORT_AFTER_FAILURES-th failure; later failures only at debug level.
  const stuck = failures.filter((f) => f.attempts === REPORT_AFTER_FAILURES);
  if (stuck.length) {
    logger.error(
      { ...summary(stuck), attempts: REPORT_AFTER_FAILURES, retryEveryMs: MAX_RETRY_MS },
      'expiry sweep keeps failing on these orders; they stay open and are retried with a growing delay',
    );
  }
  if (result.paid || result.expired) logger.info({ ...result }, 'expiry sweep settled orders');
  return result;
}

/** Records the order's `attempts`-th failed try and when to try it next. */
async function recordFailure(pool: Pool, razorpayOrderId: string, attempts: number, err: unknown, now: Date) {
  const message = err instanceof Error ? err.message : String(err);
  await pool.query(
    `INSERT INTO checkout.expiry_sweep_failures (razorpay_order_id, attempts, next_attempt_at, last_error, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (razorpay_order_id) DO UPDATE
       SET attempts = EXCLUDED.attempts, next_attempt_at = EXCLUDED.next_attempt_at,
           last_error = EXCLUDED.last_error, updated_at = EXCLUDED.updated_at`,
    [
      razorpayOrderId,
      attempts,
      new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
      message.slice(0, 1000),
      now.toISOString(),
    ],
  );
}
