import { paymentStreamId, type PaymentEvent } from '@shop/shared/contracts/payment-events';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import { decidePayment, evolvePayment, initialPaymentState, type PaymentOrderState } from './decider.ts';
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

/** Records PaymentVerified unless already recorded (any path: browser, webhook, reconciliation). */
export async function recordPaid(
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
