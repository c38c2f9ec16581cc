import { paymentStreamId, type ExpiryReason } from '@shop/shared/contracts/payment-events';
import { ForbiddenError, NotFoundError } from '@shop/shared/errors/errors';
import { decideOnStream } from '@shop/shared/eventstore/command';
import { ProviderOrderUnknownError, type ProviderPayment } from '../payment-provider/provider.ts';
import { buyerKeyOfOrder, PAYMENT, type PaymentCommand, type PaymentOrderState } from '../payment/decider.ts';
import { releaseHolds } from '../payment/hold-and-price.ts';
import type { PaymentPorts } from '../payment/ports.ts';
import { loadPayment, recordPaid, recordRefundDue } from '../payment/record-payment.ts';

export type SettleOutcome = 'paid' | 'expired' | 'expired-unknown' | 'unchanged';

/**
 * Settles an unpaid order whose hold ran out: if the provider took the money after all (closed browser,
 * lost webhook) it is recorded as paid, else the order expires and its holds are released. An order the
 * provider has no record of cannot be paid: it expires too ('expired-unknown'), once, never retried. An
 * order opened without a cart that was paid but never placed (the browser closed after paying, or verify
 * refused the cart) cannot become an order: its payments are refunded (RefundDue, 'never_placed').
 */
export function settleExpired(p: PaymentPorts, orderId: string): Promise<SettleOutcome> {
  return settleUnpaid(p, orderId, 'lapsed');
}

/**
 * Ends an unpaid order now, the way the expiry sweep does, for `reason`: the provider is asked first, so a
 * payment completing at this moment becomes the order (created with a cart) rather than being lost. Ended by
 * its buyer (cancelled, failed, replaced), its stock, coupon use and live-checkout place are released at
 * once, not after the settlement consumer's turn, so the stock shows again within a second. An order opened
 * without a cart is ended only by its lapse (it holds nothing; its verify may still bring the cart).
 */
export async function settleUnpaid(p: PaymentPorts, orderId: string, reason: ExpiryReason): Promise<SettleOutcome> {
  const { state } = await loadPayment(p, orderId);
  if (state.status !== 'created' && state.status !== 'open') return 'unchanged';
  // An order opened without a cart holds nothing to give back, and a retry in the same dialog after a failed
  // attempt may still pay it: only its lapse ends it.
  if (state.status === 'open' && reason !== 'lapsed') return 'unchanged';
  // The sweep reads a projection that may lag a PaymentDialogOpened: the stream's own expiry decides.
  const expiresAt = 'order' in state ? state.order.expiresAt : state.opened.expiresAt;
  if (reason === 'lapsed' && Date.parse(expiresAt) > p.clock().getTime()) return 'unchanged';
  let unknownToProvider = false;
  let payments: ProviderPayment[] = [];
  try {
    payments = await p.provider.fetchPayments(orderId);
  } catch (err) {
    if (!(err instanceof ProviderOrderUnknownError)) throw err;
    unknownToProvider = true;
  }
  const paid = payments.filter((x) => x.status === 'captured' || x.status === 'authorized');
  if (paid.length && state.status === 'created') {
    await recordPaid(p, orderId, paid[0]!.id, 'reconciliation');
    return 'paid';
  }
  for (const payment of paid)
    await recordRefundDue(p, orderId, {
      paymentId: payment.id,
      reason: 'never_placed',
      detail: 'Paid, but the order was never placed (no cart verified) before its hold lapsed',
    });
  const { state: before, events } = await decideOnStream(
    p.store,
    paymentStreamId(orderId),
    PAYMENT,
    (): PaymentCommand => ({ type: 'ExpirePaymentOrder', data: { now: p.clock(), reason } }),
    reason === 'lapsed' ? 'expiry' : 'checkout',
  );
  const ended = !events.length
    ? null
    : 'order' in before
      ? { reservationId: before.order.reservationId, couponCode: before.order.couponCode }
      : { reservationId: '', couponCode: null };
  if (!ended) return 'unchanged';
  if (reason !== 'lapsed' && ended.reservationId) {
    await releaseHolds(p, ended);
    await p.liveCheckouts
      .release(ended.reservationId)
      .catch((e: unknown) =>
        p.logger.error({ err: e, reservationId: ended.reservationId }, 'could not give back a checkout place'),
      );
  }
  return unknownToProvider ? 'expired-unknown' : 'expired';
}

/**
 * The buyer's own checkout, or NotFoundError / ForbiddenError: only who opened it (its recorded buyer key)
 * may cancel it or say its dialog opened. An order recorded before buyer keys were kept belongs to no one.
 */
async function ownCheckout(p: PaymentPorts, orderId: string, buyerKey: string) {
  const loaded = await loadPayment(p, orderId);
  if (loaded.state.status === 'none') throw new NotFoundError('Payment order not found');
  if (buyerKeyOfOrder(loaded.state) !== buyerKey) {
    p.logger.warn({ orderId }, 'refused a checkout call from someone other than its buyer');
    throw new ForbiddenError('This checkout belongs to another buyer');
  }
  return loaded;
}

/**
 * The buyer cancelled the payment dialog (or their payment failed): the order ends now and its holds go back,
 * unless the provider says it was paid meanwhile, when it becomes the order. Idempotent. Answers 'paid' (the
 * order is placed) or 'cancelled' (an order opened without a cart holds nothing and is left to lapse).
 */
export async function cancelCheckout(
  p: PaymentPorts,
  orderId: string,
  buyerKey: string,
  reason: 'cancelled' | 'failed' = 'cancelled',
): Promise<'paid' | 'cancelled'> {
  await ownCheckout(p, orderId, buyerKey);
  await settleUnpaid(p, orderId, reason);
  const { state } = await loadPayment(p, orderId);
  return state.status === 'verified' ? 'paid' : 'cancelled';
}

/**
 * The buyer's payment dialog opened: the hold, short until now (HOLD_BEFORE_DIALOG_SECONDS), lasts the full
 * reservation time counted from when the order was created (never longer, however often this is called).
 * Answers when the hold now lapses.
 */
export async function dialogOpened(p: PaymentPorts, orderId: string, buyerKey: string): Promise<{ expiresAt: string }> {
  const loaded = await ownCheckout(p, orderId, buyerKey);
  const { state, events } = await decideOnStream(
    p.store,
    paymentStreamId(orderId),
    PAYMENT,
    (state): PaymentCommand => ({
      type: 'OpenPaymentDialog',
      data: {
        expiresAt: new Date(Date.parse(holdOf(state).createdAt) + p.reservationTtlMs).toISOString(),
        now: p.clock(),
      },
    }),
    // decided on the stream as ownCheckout read it (the append checks its version), not read a second time
    { actor: 'checkout', loaded },
  );
  for (const e of events) if (e.type === 'PaymentDialogOpened') return { expiresAt: e.data.expiresAt };
  return { expiresAt: holdOf(state).expiresAt };
}

/** The order's hold as recorded (its cart's or, opened without one, its opening's), or NotFoundError. */
function holdOf(state: PaymentOrderState): { createdAt: string; expiresAt: string } {
  if (state.status === 'none') throw new NotFoundError('Payment order not found');
  return 'order' in state ? state.order : state.opened;
}

/**
 * Before a buyer's new checkout: their earlier unpaid checkouts (refresh, back button, a second tab, a changed
 * cart) are replaced, their holds released first, so a retry never competes with the buyer's own checkout.
 * One indexed query finds them (live_checkouts by buyer key). A payment that still arrives for one is placed
 * if its stock can be held again, else refunded (record-payment's revive).
 */
export async function replaceCheckoutsOf(p: PaymentPorts, buyerKey: string): Promise<void> {
  for (const orderId of await p.liveCheckouts.ordersOf(buyerKey, p.clock())) {
    // One that cannot be settled now (the provider unreachable) keeps its hold until its lapse; the new
    // checkout goes ahead rather than fail for it.
    await settleUnpaid(p, orderId, 'replaced').catch((err: unknown) =>
      p.logger.warn({ err, orderId }, 'could not replace an earlier checkout of the buyer; it lapses on its own'),
    );
  }
}
