import type pg from 'pg';
import type { Logger } from '@shop/shared/observability/logger';

/** The job that gives back what checkouts that died mid-way left held (see releaseOrphanCheckouts). */
export const ORPHAN_CHECKOUTS_JOB = 'checkout.orphan-checkouts';

/**
 * Coupon uses belong to their coupon's stream, and a create-order that died after holding one but before
 * recording its payment order (a crash, a kill -9) leaves it held for ever: no order will expire and
 * release it. Such a checkout also leaves its live-checkout place, whose backstop expiry (twice the hold
 * plus a minute) is long after any order it could have recorded. So: every lapsed place with no payment
 * order is an orphan; its coupon uses are released (idempotent) and the place is deleted. Answers how many
 * orphans it settled. (Its stock is the catalog's: the catalog's own hold sweep gives it back.)
 */
export async function releaseOrphanCheckouts(deps: {
  pool: pg.Pool;
  clock: () => Date;
  logger: Logger;
  releaseCouponUses: (reservationId: string) => Promise<number>;
  limit?: number;
}): Promise<number> {
  const { rows } = await deps.pool.query<{ reservation_id: string }>(
    `SELECT lc.reservation_id FROM checkout.live_checkouts lc
      WHERE lc.expires_at <= $1
        AND NOT EXISTS (SELECT 1 FROM checkout.payment_orders po WHERE po.reservation_id = lc.reservation_id)
      ORDER BY lc.expires_at LIMIT $2`,
    [deps.clock(), deps.limit ?? 200],
  );
  let settled = 0;
  for (const { reservation_id: reservationId } of rows) {
    try {
      const released = await deps.releaseCouponUses(reservationId);
      await deps.pool.query('DELETE FROM checkout.live_checkouts WHERE reservation_id = $1', [reservationId]);
      settled += 1;
      if (released > 0) deps.logger.info({ reservationId, released }, 'released coupon uses of a checkout that died');
    } catch (err) {
      deps.logger.warn({ err, reservationId }, 'could not settle an orphaned checkout; it will be retried');
    }
  }
  return settled;
}
