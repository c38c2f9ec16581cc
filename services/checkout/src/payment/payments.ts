import type { CheckoutRequest, PaymentPorts } from './ports.ts';
import { createOrder, openOrder } from './create-order.ts';
import { verify } from './price-at-verify.ts';
import { loadPayment, recordFailure, recordPaid } from './record-payment.ts';
import { cancelCheckout, dialogOpened, settleExpired, settleUnpaid } from '../settlement/settle-expired.ts';

export type { CheckoutRequest, CouponUses, DeliveryQuotes, PaymentPorts } from './ports.ts';
export { orderLinesOf } from './hold-and-price.ts';

export const RECONCILE_JOB = 'checkout.reconcile';

/**
 * The purchase saga's front half, one module per command (create-order, price-at-verify, record-payment,
 * settle-expired), each a small function over the ports; this binds them to one set of ports for the API,
 * the webhook and the expiry sweep.
 */
export class Payments {
  constructor(private readonly ports: PaymentPorts) {}

  get keyId(): string {
    return this.ports.provider.keyId;
  }

  createOrder(req: CheckoutRequest) {
    return createOrder(this.ports, req);
  }

  openOrder(input: { amountPaise: number; receipt: string; userId: string | null; buyerKey: string }) {
    return openOrder(this.ports, input);
  }

  verify(input: { orderId: string; paymentId: string; signature: string }, cart?: CheckoutRequest) {
    return verify(this.ports, input, cart);
  }

  recordPaid(orderId: string, paymentId: string, via: 'checkout' | 'webhook' | 'reconciliation') {
    return recordPaid(this.ports, orderId, paymentId, via);
  }

  recordFailure(orderId: string, reason: string) {
    return recordFailure(this.ports, orderId, reason);
  }

  /** The provider reported a failed payment: recorded, and the order ends as a cancel would end it. */
  async providerFailure(orderId: string, reason: string) {
    await recordFailure(this.ports, orderId, reason);
    return settleUnpaid(this.ports, orderId, 'failed');
  }

  settleExpired(orderId: string) {
    return settleExpired(this.ports, orderId);
  }

  /** The buyer dismissed the payment dialog ('cancelled') or the payment failed ('failed'). */
  cancel(orderId: string, buyerKey: string, reason: 'cancelled' | 'failed' = 'cancelled') {
    return cancelCheckout(this.ports, orderId, buyerKey, reason);
  }

  dialogOpened(orderId: string, buyerKey: string) {
    return dialogOpened(this.ports, orderId, buyerKey);
  }

  load(orderId: string) {
    return loadPayment(this.ports, orderId);
  }
}
