import type { PaymentEvent } from '@shop/shared/contracts/payment-events';
import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';

export const PAYMENT_ORDERS_PROJECTION = 'checkout.payment_orders';

const tables = {
  orders: table('checkout.payment_orders', {
    key: ['razorpay_order_id'],
    columns: [
      'razorpay_order_id',
      'reservation_id',
      'user_id',
      'status',
      'total_paise',
      'payment_id',
      'failures',
      'created_at',
      'expires_at',
      'updated_at',
    ],
  }),
};

/** A provider order's first row: created, not paid, no failures, last updated when created. */
const created = (
  d: { razorpayOrderId: string; createdAt: string; expiresAt: string },
  reservationId: string,
  userId: string | null,
  totalPaise: number,
) => ({
  razorpay_order_id: d.razorpayOrderId,
  reservation_id: reservationId,
  user_id: userId,
  status: 'created',
  total_paise: totalPaise,
  payment_id: null,
  failures: 0,
  created_at: d.createdAt,
  expires_at: d.expiresAt,
  updated_at: d.createdAt,
});

/** checkout.payment_orders: open provider orders for the reconciliation sweep and operators. */
export const paymentOrdersReadModel = defineReadModel<PaymentEvent, typeof tables>({
  name: PAYMENT_ORDERS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  tables,
  evolve: {
    PaymentOrderOpened(d, { orders }) {
      orders.insert(created(d, '', d.userId, d.amountPaise));
    },
    PaymentOrderCreated(d, { orders }) {
      if (!orders.update(d.razorpayOrderId, { reservation_id: d.reservationId, total_paise: d.totalPaise }))
        orders.insert(created(d, d.reservationId, d.customer.userId, d.totalPaise));
    },
    PaymentDialogOpened(d, { orders }) {
      orders.update(d.razorpayOrderId, { expires_at: d.expiresAt, updated_at: d.openedAt });
    },
    PaymentOrderRevived(d, { orders }) {
      orders.update(d.razorpayOrderId, { reservation_id: d.reservationId, updated_at: d.revivedAt });
    },
    PaymentVerified(d, { orders }) {
      orders.update(d.razorpayOrderId, {
        status: 'verified',
        payment_id: d.razorpayPaymentId,
        updated_at: d.verifiedAt,
      });
    },
    PaymentOrderExpired(d, { orders }) {
      orders.update(d.razorpayOrderId, { status: 'expired', updated_at: d.expiredAt });
    },
    PaymentFailed(d, { orders }) {
      if (orders.add(d.razorpayOrderId, 'failures', 1)) orders.update(d.razorpayOrderId, { updated_at: d.failedAt });
    },
  },
});

export const paymentOrdersProjection = readModelConsumer(paymentOrdersReadModel);

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
