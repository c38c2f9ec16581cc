import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import { ProviderOrderUnknownError, type ProviderPayment } from '../payment-provider/provider.ts';
import { decidePayment } from './decider.ts';
import type { PaymentPorts } from './ports.ts';
import { loadPayment, recordPaid } from './record-payment.ts';

/**
 * Settles an unpaid order whose hold ran out: if the provider took the money after all (closed browser,
 * lost webhook) it is recorded as paid, else the order expires and its holds are released. An order the
 * provider has no record of cannot be paid: it expires too ('expired-unknown'), once, never retried.
 */
export async function settleExpired(
  p: Pick<PaymentPorts, 'store' | 'clock' | 'provider'>,
  orderId: string,
): Promise<'paid' | 'expired' | 'expired-unknown' | 'unchanged'> {
  const { state } = await loadPayment(p, orderId);
  if (state.status !== 'created' && state.status !== 'open') return 'unchanged';
  let unknownToProvider = false;
  if (state.status === 'created') {
    let payments: ProviderPayment[] = [];
    try {
      payments = await p.provider.fetchPayments(orderId);
    } catch (err) {
      if (!(err instanceof ProviderOrderUnknownError)) throw err;
      unknownToProvider = true;
    }
    const paid = payments.find((x) => x.status === 'captured' || x.status === 'authorized');
    if (paid) {
      await recordPaid(p, orderId, paid.id, 'reconciliation');
      return 'paid';
    }
  }
  const expired = await retryOnConflict(async () => {
    const current = await loadPayment(p, orderId);
    const events = decidePayment({ type: 'ExpirePaymentOrder', data: { now: p.clock() } }, current.state);
    if (!events.length) return 'unchanged' as const;
    await p.store.append(paymentStreamId(orderId), current.version, events, { metadata: { actor: 'expiry' } });
    return 'expired' as const;
  });
  return expired === 'expired' && unknownToProvider ? 'expired-unknown' : expired;
}
