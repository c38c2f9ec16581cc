/**
 * The order service's placement as checkout sees it (owned by the order service): which order a verified
 * payment became, waited for (bounded) so verify can answer with the order number (read-your-writes).
 * In-process in the all-in-one gateway, over HTTP (the order service's /internal/orders routes, never
 * forwarded by the gateway) when services run apart. Checkout never reads the `orders` schema itself.
 */

/** The PaymentVerified checkout recorded: `payment-<razorpayOrderId>` at `paymentStreamVersion`. */
export interface VerifiedPaymentRef {
  razorpayOrderId: string;
  paymentStreamId: string;
  paymentStreamVersion: number;
}

/** How long a caller waits for the order when it does not say. */
export const ORDER_OF_PAYMENT_DEFAULT_WAIT_MS = 5000;
/** The longest wait a caller may ask for (the internal route refuses more). */
export const ORDER_OF_PAYMENT_MAX_WAIT_MS = 10_000;

export interface OrderPlacementPort {
  /**
   * The order number once the order placed from this payment shows in the orders list; null when it does
   * not within `timeoutMs` (default 5 s, at most 10 s) or the order service cannot say in time. The
   * payment is recorded either way: null only means "it will appear shortly", never "no order".
   */
  orderOfPayment(payment: VerifiedPaymentRef, timeoutMs?: number): Promise<string | null>;
}
