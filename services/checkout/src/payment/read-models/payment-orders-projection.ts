import { defineProjection } from '@shop/shared/bus/projection';
import type { PaymentEvent } from '@shop/shared/contracts/payment-events';

export const PAYMENT_ORDERS_PROJECTION = 'checkout.payment_orders';

/** checkout.payment_orders: open provider orders for the reconciliation sweep and operators. */
export const paymentOrdersProjection = defineProjection<PaymentEvent>({
  name: PAYMENT_ORDERS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  on: {
    async PaymentOrderOpened(d, tx) {
      await tx.query(
        `INSERT INTO checkout.payment_orders (razorpay_order_id, reservation_id, user_id, status, total_paise, created_at, expires_at, updated_at)
         VALUES ($1, '', $2, 'created', $3, $4, $5, $4) ON CONFLICT (razorpay_order_id) DO NOTHING`,
        [d.razorpayOrderId, d.userId, d.amountPaise, d.createdAt, d.expiresAt],
      );
    },
    async PaymentOrderCreated(d, tx) {
      await tx.query(
        `INSERT INTO checkout.payment_orders (razorpay_order_id, reservation_id, user_id, status, total_paise, created_at, expires_at, updated_at)
         VALUES ($1, $2, $3, 'created', $4, $5, $6, $5)
         ON CONFLICT (razorpay_order_id) DO UPDATE SET reservation_id = EXCLUDED.reservation_id, total_paise = EXCLUDED.total_paise`,
        [d.razorpayOrderId, d.reservationId, d.customer.userId, d.totalPaise, d.createdAt, d.expiresAt],
      );
    },
    async PaymentDialogOpened(d, tx) {
      await tx.query(
        `UPDATE checkout.payment_orders SET expires_at = $2, updated_at = $3 WHERE razorpay_order_id = $1`,
        [d.razorpayOrderId, d.expiresAt, d.openedAt],
      );
    },
    async PaymentOrderRevived(d, tx) {
      await tx.query(
        `UPDATE checkout.payment_orders SET reservation_id = $2, updated_at = $3 WHERE razorpay_order_id = $1`,
        [d.razorpayOrderId, d.reservationId, d.revivedAt],
      );
    },
    async PaymentVerified(d, tx) {
      await tx.query(
        `UPDATE checkout.payment_orders SET status = 'verified', payment_id = $2, updated_at = $3 WHERE razorpay_order_id = $1`,
        [d.razorpayOrderId, d.razorpayPaymentId, d.verifiedAt],
      );
    },
    async PaymentOrderExpired(d, tx) {
      await tx.query(
        `UPDATE checkout.payment_orders SET status = 'expired', updated_at = $2 WHERE razorpay_order_id = $1`,
        [d.razorpayOrderId, d.expiredAt],
      );
    },
    async PaymentFailed(d, tx) {
      await tx.query(
        `UPDATE checkout.payment_orders SET failures = failures + 1, updated_at = $2 WHERE razorpay_order_id = $1`,
        [d.razorpayOrderId, d.failedAt],
      );
    },
  },
});

/**
 * Open orders past their hold (plus a grace period) that are due for the expiry sweep, oldest due first.
 * An order the sweep failed on (checkout.expiry_sweep_failures) is due again only at its next attempt time
 * and queues by that time, so orders that keep failing never fill the batch ahead of newer ones.
 */
export async function overdueOpenOrders(
  db: {
    query: (
      sql: string,
      params: unknown[],
    ) => Promise<{ rows: Array<{ razorpay_order_id: string; failed_attempts: number }> }>;
  },
  now: Date,
  graceMs: number,
  limit = 200,
): Promise<Array<{ razorpayOrderId: string; failedAttempts: number }>> {
  const { rows } = await db.query(
    `SELECT p.razorpay_order_id, coalesce(f.attempts, 0) AS failed_attempts
       FROM checkout.payment_orders p
       LEFT JOIN checkout.expiry_sweep_failures f ON f.razorpay_order_id = p.razorpay_order_id
      WHERE p.status = 'created' AND p.expires_at < $1 AND (f.next_attempt_at IS NULL OR f.next_attempt_at <= $2)
      ORDER BY coalesce(f.next_attempt_at, p.expires_at), p.razorpay_order_id
      LIMIT $3`,
    [new Date(now.getTime() - graceMs).toISOString(), now.toISOString(), limit],
  );
  return rows.map((r) => ({ razorpayOrderId: r.razorpay_order_id, failedAttempts: r.failed_attempts }));
}
