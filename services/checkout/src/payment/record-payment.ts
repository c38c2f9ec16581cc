import { paymentStreamId, type PaymentEvent, type RefundReason } from '@shop/shared/contracts/payment-events';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import {
  decidePayment,
  evolvePayment,
  initialPaymentState,
  PaymentAfterExpiryError,
  type PaymentOrderState,
} from './decider.ts';
import type { PaymentPorts } from './ports.ts';

type Ports = Pick<PaymentPorts, 'store' | 'clock'>;

/** The payment order's state and version, folded from its stream. */
export function loadPayment(p: Pick<PaymentPorts, 'store'>, orderId: string) {
  return p.store.aggregate<PaymentOrderState, PaymentEvent>(
    paymentStreamId(orderId),
    evolvePayment,
    initialPaymentState(),
  );
}

/**
 * Records PaymentVerified unless already recorded (any path: browser, webhook, reconciliation). A payment
 * for an order whose hold had lapsed is recorded as a refund due before PaymentAfterExpiryError is thrown.
 */
export async function recordPaid(
  p: Ports,
  orderId: string,
  paymentId: string,
  via: 'checkout' | 'webhook' | 'reconciliation',
): Promise<{ version: number }> {
  try {
    return await recordVerified(p, orderId, paymentId, via);
  } catch (err) {
    if (err instanceof PaymentAfterExpiryError)
      await recordRefundDue(p, orderId, {
        paymentId,
        reason: 'paid_after_expiry',
        detail: `Payment captured after the reservation expired (reported by ${via})`,
      });
    throw err;
  }
}

function recordVerified(
  p: Ports,
  orderId: string,
  paymentId: string,
  via: 'checkout' | 'webhook' | 'reconciliation',
): Promise<{ version: number }> {
  return retryOnConflict(async () => {
    const { state, version } = await loadPayment(p, orderId);
    const events = decidePayment({ type: 'VerifyPayment', data: { paymentId, via, now: p.clock() } }, state);
    if (events.length === 0) return { version };
    const r = await p.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: via } });
    return { version: r.nextExpectedVersion };
  }, 10);
}

/** Records a failed payment (or a refund due) on the order, unless the decider finds nothing to record. */
export async function recordFailure(p: Ports, orderId: string, reason: string): Promise<void> {
  await retryOnConflict(async () => {
    const { state, version } = await loadPayment(p, orderId);
    const events = decidePayment({ type: 'RecordPaymentFailure', data: { reason, now: p.clock() } }, state);
    if (events.length)
      await p.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: 'checkout' } });
  });
}

/**
 * Records that a payment taken on `orderId` is to be refunded (RefundDue), once per payment: a repeat (a
 * webhook redelivered, a verify retried) records nothing. The refund itself is issued after the commit.
 */
export async function recordRefundDue(
  p: Ports,
  orderId: string,
  input: { paymentId: string; reason: RefundReason; detail: string; customerEmail?: string | null },
): Promise<void> {
  await retryOnConflict(async () => {
    const { state, version } = await loadPayment(p, orderId);
    const events = decidePayment(
      {
        type: 'RecordRefundDue',
        data: { ...input, customerEmail: input.customerEmail ?? null, now: p.clock() },
      },
      state,
    );
    if (events.length)
      await p.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: 'checkout' } });
  }, 10);
}
