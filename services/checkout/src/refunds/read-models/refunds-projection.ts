import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { PaymentEvent, RefundReason } from '@shop/shared/contracts/payment-events';
import { paiseToRupees } from '@shop/shared/money/money';

export const REFUNDS_PROJECTION = 'checkout.refunds';

const tables = {
  refunds: table('checkout.refunds', {
    key: ['razorpay_payment_id'],
    columns: [
      'razorpay_payment_id',
      'razorpay_order_id',
      'customer_email',
      'amount_paise',
      'reason',
      'detail',
      'status',
      'refund_id',
      'due_at',
      'refunded_at',
    ],
  }),
};

/** checkout.refunds: every refund due and whether the provider has refunded it (admins' refunds list). */
export const refundsReadModel = defineReadModel<PaymentEvent, typeof tables>({
  name: REFUNDS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  tables,
  evolve: {
    RefundDue(d, { refunds }) {
      refunds.insert({
        razorpay_payment_id: d.razorpayPaymentId,
        razorpay_order_id: d.razorpayOrderId,
        customer_email: d.customerEmail,
        amount_paise: d.amountPaise,
        reason: d.reason,
        detail: d.detail,
        status: 'due',
        refund_id: null,
        due_at: d.dueAt,
        refunded_at: null,
      });
    },
    PaymentRefunded(d, { refunds }) {
      refunds.update(d.razorpayPaymentId, {
        status: 'refunded',
        refund_id: d.refundId,
        amount_paise: d.amountPaise,
        refunded_at: d.refundedAt,
      });
    },
  },
});

export const refundsProjection = readModelConsumer(refundsReadModel);

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
