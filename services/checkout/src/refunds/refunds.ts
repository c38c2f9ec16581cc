import type pg from 'pg';
import { PendingRows, pendingWorkRetryAt } from '@shop/shared/bus/pending-work';
import type { EventConsumer } from '@shop/shared/bus/types';
import { paymentStreamId, type PaymentEvent } from '@shop/shared/contracts/payment-events';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { Logger } from '@shop/shared/observability/logger';
import type { ProviderRefund } from '../payment-provider/provider.ts';
import { chargedPaise, PAYMENT, type PaymentCommand } from '../payment/decider.ts';
import type { PaymentPorts } from '../payment/ports.ts';
import { loadPayment } from '../payment/record-payment.ts';

export const REFUNDING_CONSUMER = 'checkout.refunding';
/** The job that issues refunds left pending (a failed provider call, or a process that died after commit). */
export const REFUND_PENDING_JOB = 'checkout.refund-pending';

/**
 * Process manager: a RefundDue becomes a row of checkout.pending_refunds in the bus transaction (so a decided
 * refund is never lost); PaymentRefunded removes it. The provider is called after the commit (`refunds.run`),
 * never inside a bus transaction: handle() returns true, and afterCommit kicks the runner.
 */
export function refundingConsumer(refunds: PendingRefunds): EventConsumer<true> {
  return {
    name: REFUNDING_CONSUMER,
    schema: 'checkout',
    sources: ['checkout'],
    eventTypes: ['RefundDue', 'PaymentRefunded'],
    async handle(event, tx) {
      const e = { type: event.type, data: event.data } as PaymentEvent;
      if (e.type === 'RefundDue') await refunds.record(tx, e.data.razorpayPaymentId, e.data.razorpayOrderId);
      else if (e.type === 'PaymentRefunded')
        await tx.query('DELETE FROM checkout.pending_refunds WHERE razorpay_payment_id = $1', [
          e.data.razorpayPaymentId,
        ]);
      return true;
    },
    afterCommit() {
      refunds.kick();
    },
  };
}

/** How long a runner holds a claimed refund: well past the provider's two calls (15 s timeout each). */
const LEASE_MS = 120_000;
const BATCH = 50;

interface DueRefund {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  attempts: number;
}

/** Our reference on the provider's refund: a retry finds the refund an earlier attempt made by it. */
export const refundReceipt = (paymentId: string) => `refund_${paymentId}`.slice(0, 40);

/**
 * The refunds decided and not yet issued. `run` claims the due ones (a lease, so two processes never issue
 * one refund at the same time) and issues each exactly once: it first asks the provider for the payment's
 * refunds, so a refund made by an attempt that died before recording it is recorded, not made again. One
 * that fails waits 1 s, doubling up to 5 minutes (PENDING_WORK_RETRY), and never holds up the others.
 */
export class PendingRefunds extends PendingRows<DueRefund> {
  constructor(
    private readonly deps: Pick<PaymentPorts, 'store' | 'provider' | 'clock' | 'logger'> & {
      pool: pg.Pool;
      logger: Logger;
    },
  ) {
    super(BATCH, (err) => deps.logger.error({ err }, 'issuing refunds failed'));
  }

  async record(tx: pg.PoolClient, paymentId: string, orderId: string): Promise<void> {
    await tx.query(
      `INSERT INTO checkout.pending_refunds (razorpay_payment_id, razorpay_order_id, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $3) ON CONFLICT (razorpay_payment_id) DO NOTHING`,
      [paymentId, orderId, this.deps.clock()],
    );
  }

  /** Claims the due refunds this process can (a lease: no other runner takes them meanwhile). */
  protected async due(limit: number): Promise<DueRefund[]> {
    const now = this.deps.clock();
    const { rows } = await this.deps.pool.query<DueRefund>(
      `UPDATE checkout.pending_refunds SET claimed_until = $2
        WHERE razorpay_payment_id IN (
          SELECT razorpay_payment_id FROM checkout.pending_refunds
           WHERE next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
           ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING razorpay_payment_id, razorpay_order_id, attempts`,
      [now, new Date(now.getTime() + LEASE_MS)],
    );
    return rows;
  }

  protected carryOut(r: DueRefund): Promise<boolean> {
    return this.issue(r.razorpay_order_id, r.razorpay_payment_id, r.attempts);
  }

  private async issue(orderId: string, paymentId: string, attempts: number): Promise<boolean> {
    const { store, pool, logger } = this.deps;
    try {
      const { state } = await loadPayment({ store }, orderId);
      if (state.status !== 'none' && state.refunds[paymentId] === 'due') {
        const amountPaise = chargedPaise(state);
        const refund = await this.providerRefund(paymentId, amountPaise);
        await decideAndAppend(
          store,
          paymentStreamId(orderId),
          PAYMENT,
          (): PaymentCommand => ({
            type: 'RecordRefund',
            data: { paymentId, refundId: refund.id, amountPaise: refund.amount, now: this.deps.clock() },
          }),
          { actor: 'refunds', maxAttempts: 10 },
        );
        logger.info({ orderId, paymentId, refundId: refund.id, amountPaise: refund.amount }, 'payment refunded');
      }
      await pool.query('DELETE FROM checkout.pending_refunds WHERE razorpay_payment_id = $1', [paymentId]);
      return true;
    } catch (err) {
      logger.warn({ err, orderId, paymentId, attempts: attempts + 1 }, 'refund failed; it will be retried');
      await pool
        .query(
          `UPDATE checkout.pending_refunds
              SET attempts = attempts + 1, next_attempt_at = $2, claimed_until = NULL, last_error = $3
            WHERE razorpay_payment_id = $1`,
          [paymentId, pendingWorkRetryAt(this.deps.clock(), attempts), String(err).slice(0, 500)],
        )
        .catch(() => undefined);
      return false;
    }
  }

  /**
   * The provider's refund of this payment: the one an earlier attempt made (found by its receipt), else, if
   * the payment is already refunded in full (by hand, in the provider's dashboard), the last refund; else a
   * new one of what is left to refund.
   */
  private async providerRefund(paymentId: string, amountPaise: number): Promise<ProviderRefund> {
    const receipt = refundReceipt(paymentId);
    const existing = (await this.deps.provider.fetchRefunds(paymentId)).filter((r) => r.status !== 'failed');
    const ours = existing.find((r) => r.receipt === receipt);
    if (ours) return ours;
    const refunded = existing.reduce((sum, r) => sum + r.amount, 0);
    if (refunded >= amountPaise && existing.length) return existing[existing.length - 1]!;
    return this.deps.provider.refund(paymentId, amountPaise - refunded, { receipt });
  }
}
