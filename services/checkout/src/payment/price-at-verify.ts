import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { AppError, ForbiddenError, ValidationError } from '@shop/shared/errors/errors';
import { StreamVersionConflictError } from '@shop/shared/eventstore/postgres-event-store';
import { verifyPaymentSignature } from '@shop/razorpay-sandbox/signatures';
import { decidePayment, evolvePayment, mayPriceOpenedOrder, PaymentRefundDueError } from './decider.ts';
import { holdAndPrice, releaseHolds, type HeldOrder } from './hold-and-price.ts';
import type { CheckoutRequest, PaymentPorts } from './ports.ts';
import { loadPayment, recordFailure, recordPaid, recordRefundDue } from './record-payment.ts';

/** Verify: checks the browser's signature against the stored provider order, then records the payment once. */
export async function verify(
  p: PaymentPorts,
  input: { orderId: string; paymentId: string; signature: string },
  cart?: CheckoutRequest,
): Promise<{ version: number }> {
  const { state } = await loadPayment(p, input.orderId);
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
  if (state.status !== 'open') return recordPaid(p, input.orderId, input.paymentId, 'checkout');
  if (!cart) throw new ValidationError('orderData is required to place this order');
  // An order opened by an account is that account's: no one else attaches a cart (and a customer) to it.
  if (!mayPriceOpenedOrder(state.opened, cart.customer.userId)) {
    p.logger.warn(
      { orderId: input.orderId, openedBy: state.opened.userId, attemptedBy: cart.customer.userId ?? 'guest' },
      'refused a cart for an opened order from someone other than its opener',
    );
    throw new ForbiddenError('Payment verification failed');
  }
  return priceAtVerify(p, input.orderId, input.paymentId, cart, state.opened.amountPaise);
}

/** An opened order's cart, priced now: accepted only when the server's total is what was charged. */
async function priceAtVerify(
  p: PaymentPorts,
  orderId: string,
  paymentId: string,
  cart: CheckoutRequest,
  chargedPaise: number,
): Promise<{ version: number }> {
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
  // Holding stock took a while: decide and append on the stream as it is now.
  const { state: opened, version } = await loadPayment(p, orderId);
  if (opened.status !== 'open') {
    await releaseHolds(p, held);
    return recordPaid(p, orderId, paymentId, 'checkout');
  }
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
  const verified = decidePayment(
    { type: 'VerifyPayment', data: { paymentId, via: 'checkout', now } },
    created.reduce(evolvePayment, opened),
  );
  try {
    const r = await p.store.append(paymentStreamId(orderId), version, [...created, ...verified], {
      metadata: { actor: 'checkout' },
    });
    return { version: r.nextExpectedVersion };
  } catch (err) {
    await releaseHolds(p, held);
    // A concurrent verify priced it first: answer as that one did.
    if (err instanceof StreamVersionConflictError) return recordPaid(p, orderId, paymentId, 'checkout');
    throw err;
  }
}
