/**
 * The order service's placement as checkout sees it (owned by the order service): the numbers of orders to
 * come, which checkout records in PaymentVerified so that verify answers with the order number at once; and
 * which order a verified payment became, waited for (bounded), for a payment recorded without a number.
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
  /**
   * `count` fresh order numbers (unique, never handed out again; ones left unused are gaps), for checkout to
   * record in PaymentVerified: the placement then places the order under that number.
   */
  allocateOrderNumbers(count: number): Promise<string[]>;
}

/** The most order numbers one allocateOrderNumbers call hands out (the internal route refuses more). */
export const MAX_ORDER_NUMBERS_PER_CALL = 100;
