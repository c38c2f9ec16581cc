import { defineProjection } from '@shop/shared/bus/projection';
import type { PaymentEvent, RefundReason } from '@shop/shared/contracts/payment-events';
import { paiseToRupees } from '@shop/shared/money/money';

export const REFUNDS_PROJECTION = 'checkout.refunds';

/** checkout.refunds: every refund due and whether the provider has refunded it (admins' refunds list). */
export const refundsProjection = defineProjection<PaymentEvent>({
  name: REFUNDS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  on: {
    async RefundDue(d, tx) {
      await tx.query(
        `INSERT INTO checkout.refunds (razorpay_payment_id, razorpay_order_id, customer_email, amount_paise, reason, detail, status, due_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'due', $7) ON CONFLICT (razorpay_payment_id) DO NOTHING`,
        [d.razorpayPaymentId, d.razorpayOrderId, d.customerEmail, d.amountPaise, d.reason, d.detail, d.dueAt],
      );
    },
    async PaymentRefunded(d, tx) {
      await tx.query(
        `UPDATE checkout.refunds SET status = 'refunded', refund_id = $2, amount_paise = $3, refunded_at = $4
          WHERE razorpay_payment_id = $1`,
        [d.razorpayPaymentId, d.refundId, d.amountPaise, d.refundedAt],
      );
    },
  },
});

/** A refund as the admin refunds list shows it (amount in rupees, like the rest of the API). */
export interface RefundView {
  razorpayPaymentId: string;
  razorpayOrderId: string;
  customerEmail: string | null;
  amount: number;
  reason: RefundReason;
  detail: string;
  status: 'due' | 'refunded';
  refundId: string | null;
  dueAt: string;
  refundedAt: string | null;
  /** Failed tries at the provider so far, and the last one's error (while still due). */
  attempts: number;
  lastError: string | null;
}

/** The newest refunds first, with their pending attempts (checkout.pending_refunds). */
export async function listRefunds(
  db: { query: (sql: string, params: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }> },
  limit = 500,
): Promise<RefundView[]> {
  const { rows } = await db.query(
    `SELECT r.razorpay_payment_id, r.razorpay_order_id, r.customer_email, r.amount_paise, r.reason, r.detail,
            r.status, r.refund_id, r.due_at, r.refunded_at, coalesce(p.attempts, 0) AS attempts, p.last_error
       FROM checkout.refunds r
       LEFT JOIN checkout.pending_refunds p ON p.razorpay_payment_id = r.razorpay_payment_id
      ORDER BY r.due_at DESC, r.razorpay_payment_id
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    razorpayPaymentId: r.razorpay_payment_id as string,
    razorpayOrderId: r.razorpay_order_id as string,
    customerEmail: (r.customer_email as string | null) ?? null,
    amount: paiseToRupees(Number(r.amount_paise)),
    reason: r.reason as RefundReason,
    detail: r.detail as string,
    status: r.status as 'due' | 'refunded',
    refundId: (r.refund_id as string | null) ?? null,
    dueAt: (r.due_at as Date).toISOString(),
    refundedAt: r.refunded_at ? (r.refunded_at as Date).toISOString() : null,
    attempts: Number(r.attempts),
    lastError: r.status === 'refunded' ? null : ((r.last_error as string | null) ?? null),
  }));
}
