import type pg from 'pg';
import { LeasedPendingRows } from '@shop/shared/bus/pending-work';
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
      else if (e.type === 'PaymentRefunded') await refunds.settle(tx, e.data.razorpayPaymentId);
      return true;
    },
    afterCommit() {
      refunds.kick();
    },
  };
}

interface DueRefund {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  attempts: number;
}

/** Our reference on the provider's refund: a retry finds the refund an earlier attempt made by it. */
export const refundReceipt = (paymentId: string) => `refund_${paymentId}`.slice(0, 40);

/**
 * The refunds decided and not yet issued (checkout.pending_refunds, a leased table: LeasedPendingRows). Each is
 * issued exactly once: the provider is first asked for the payment's refunds, so a refund made by an attempt
 * that died before recording it is recorded, not made again. One that fails waits 1 s, doubling up to 5
 * minutes (PENDING_WORK_RETRY), and never holds up the others.
 */
export class PendingRefunds extends LeasedPendingRows<DueRefund> {
  constructor(
    private readonly deps: Pick<PaymentPorts, 'store' | 'provider' | 'clock' | 'logger'> & {
      pool: pg.Pool;
      logger: Logger;
    },
  ) {
    super({
      pool: deps.pool,
      clock: deps.clock,
      table: {
        name: 'checkout.pending_refunds',
        key: 'razorpay_payment_id',
        columns: ['razorpay_payment_id', 'razorpay_order_id'],
      },
      onError: (err) => deps.logger.error({ err }, 'issuing refunds failed'),
    });
  }

  async record(tx: pg.PoolClient, paymentId: string, orderId: string): Promise<void> {
    await tx.query(
      `INSERT INTO checkout.pending_refunds (razorpay_payment_id, razorpay_order_id, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $3) ON CONFLICT (razorpay_payment_id) DO NOTHING`,
      [paymentId, orderId, this.deps.clock()],
    );
  }

  protected async perform({ razorpay_order_id: orderId, razorpay_payment_id: paymentId }: DueRefund): Promise<void> {
    const { store, logger } = this.deps;
    const { state } = await loadPayment({ store }, orderId);
    if (state.status === 'none' || state.refunds[paymentId] !== 'due') return;
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

  protected nextAttempt(err: unknown, r: DueRefund): Date {
    this.deps.logger.warn(
      { err, orderId: r.razorpay_order_id, paymentId: r.razorpay_payment_id, attempts: r.attempts + 1 },
      'refund failed; it will be retried',
    );
    return this.retryAt(r);
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
