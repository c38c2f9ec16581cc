import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { AppError, ForbiddenError, ValidationError } from '@shop/shared/errors/errors';
import { StreamVersionConflictError } from '@shop/shared/eventstore/postgres-event-store';
import { verifyPaymentSignature } from '@shop/razorpay-sandbox/signatures';
import {
  decidePayment,
  evolvePayment,
  mayPriceOpenedOrder,
  PaymentRefundDueError,
  type PaymentOrderState,
} from './decider.ts';
import { holdAndPrice, releaseHolds, type HeldOrder } from './hold-and-price.ts';
import type { CheckoutRequest, PaymentPorts } from './ports.ts';
import {
  loadPayment,
  recordFailure,
  recordPaid,
  recordRefundDue,
  withOrderNumber,
  type RecordedPayment,
} from './record-payment.ts';

/**
 * Verify: checks the browser's signature against the stored provider order, then records the payment once,
 * deciding on the stream as read here (read once per verify). Answers the order number it recorded.
 */
export async function verify(
  p: PaymentPorts,
  input: { orderId: string; paymentId: string; signature: string },
  cart?: CheckoutRequest,
): Promise<RecordedPayment> {
  const loaded = await loadPayment(p, input.orderId);
  const { state } = loaded;
  const genuine =
    state.status !== 'none' &&
    verifyPaymentSignature({
      orderId: input.orderId,
      paymentId: input.paymentId,
      signature: input.signature,
      secret: p.keySecret,
    });
  if (!genuine) throw new ValidationError('Payment verification failed');
  // Already being refunded (refused at an earlier verify): not priced again, whatever the stock is now.
  if (state.refunds[input.paymentId]) throw new PaymentRefundDueError();
  if (state.status !== 'open') return recordPaid(p, input.orderId, input.paymentId, 'checkout', loaded);
  if (!cart) throw new ValidationError('orderData is required to place this order');
  // An order opened by an account is that account's: no one else attaches a cart (and a customer) to it.
  if (!mayPriceOpenedOrder(state.opened, cart.customer.userId)) {
    p.logger.warn(
      { orderId: input.orderId, openedBy: state.opened.userId, attemptedBy: cart.customer.userId ?? 'guest' },
      'refused a cart for an opened order from someone other than its opener',
    );
    throw new ForbiddenError('Payment verification failed');
  }
  return priceAtVerify(p, input.orderId, input.paymentId, cart, { state, version: loaded.version });
}

/**
 * An opened order's cart, priced now: accepted only when the server's total is what was charged. Appended at
 * the version `opened` was read at: if anything was recorded meanwhile (holding stock takes a while), the
 * append conflicts and the payment is recorded on the stream as it is then.
 */
async function priceAtVerify(
  p: PaymentPorts,
  orderId: string,
  paymentId: string,
  cart: CheckoutRequest,
  { state: opened, version }: { state: Extract<PaymentOrderState, { opened: unknown }>; version: number },
): Promise<RecordedPayment> {
  const chargedPaise = opened.opened.amountPaise;
  let held: HeldOrder & { reservationId: string };
  try {
    held = await holdAndPrice(p, cart);
  } catch (err) {
    await recordFailure(p, orderId, `refund due: ${(err as Error).message}`);
    // The order refused (stock gone, a cart that cannot be priced): the money goes back. Not for a failure
    // that may pass (the catalog unreachable, too many checkouts at once): the buyer's retried verify may
    // still place the order, and a refund would then take back a sale.
    if (err instanceof AppError && ['conflict', 'validation', 'not_found'].includes(err.kind))
      await recordRefundDue(p, orderId, {
        paymentId,
        reason: 'order_refused',
        detail: err.message,
        customerEmail: cart.customer.email,
      });
    throw err;
  }
  if (held.totalPaise !== chargedPaise) {
    await releaseHolds(p, held);
    await recordFailure(p, orderId, `refund due: charged ${chargedPaise} paise, order totals ${held.totalPaise}`);
    await recordRefundDue(p, orderId, {
      paymentId,
      reason: 'amount_mismatch',
      detail: `Charged ${chargedPaise} paise; the order totals ${held.totalPaise} paise`,
      customerEmail: cart.customer.email,
    });
    throw new ValidationError('Payment amount does not match the order total; the payment will be refunded');
  }
  const now = p.clock();
  let current = { state: opened, version };
  for (let attempt = 1; ; attempt++) {
    try {
      return await appendPriced(p, orderId, paymentId, held, current, now);
    } catch (err) {
      const changed = err instanceof StreamVersionConflictError;
      const fresh = changed && attempt < 5 ? await loadPayment(p, orderId) : null;
      if (fresh?.state.status === 'open') {
        current = { state: fresh.state, version: fresh.version };
        continue;
      }
      await releaseHolds(p, held);
      // Recorded meanwhile (a concurrent verify priced it first, the buyer's cancel): answer as the stream says now.
      if (changed) return recordPaid(p, orderId, paymentId, 'checkout');
      throw err;
    }
  }
}

/** The priced cart and its payment, appended at the version `opened` was read at (with the order's number). */
function appendPriced(
  p: PaymentPorts,
  orderId: string,
  paymentId: string,
  held: HeldOrder & { reservationId: string },
  { state: opened, version }: { state: Extract<PaymentOrderState, { opened: unknown }>; version: number },
  now: Date,
): Promise<RecordedPayment> {
  const created = decidePayment(
    {
      type: 'CreatePaymentOrder',
      data: {
        ...held,
        razorpayOrderId: orderId,
        receipt: opened.opened.receipt,
        currency: 'INR',
        createdAt: opened.opened.createdAt,
        expiresAt: opened.opened.expiresAt,
      },
    },
    opened,
  );
  return withOrderNumber(p, async (orderNumber) => {
    const verified = decidePayment(
      { type: 'VerifyPayment', data: { paymentId, via: 'checkout', now, orderNumber } },
      created.reduce(evolvePayment, opened as PaymentOrderState),
    );
    const r = await p.store.append(paymentStreamId(orderId), version, [...created, ...verified], {
      metadata: { actor: 'checkout' },
    });
    return { result: { version: r.nextExpectedVersion, orderNumber }, appended: true };
  });
}
