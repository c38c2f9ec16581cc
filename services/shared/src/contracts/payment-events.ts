import type { ReservedLine } from './inventory.ts';

/**
 * Integration events of the `payment-<razorpayOrderId>` streams in the checkout schema (Kafka topic
 * `shop.checkout.events`). The order service builds orders from PaymentVerified. Money is in paise.
 */

export interface OrderLine {
  productId: string;
  name: string;
  image: string;
  /** Size the shopper chose (null = none). */
  size: string | null;
  color: string | null;
  quantity: number;
  unitPricePaise: number;
  lineTotalPaise: number;
}

export interface OrderCustomer {
  userId: string | null;
  name: string;
  email: string;
  phone: string;
}

/** Everything an order needs, fixed when the provider order is created (server prices, not the client's). */
export interface PricedOrder {
  customer: OrderCustomer;
  address: string;
  pincode: string;
  lines: OrderLine[];
  subtotalPaise: number;
  couponCode: string | null;
  discountPaise: number;
  shippingChargePaise: number;
  deliveryChargePaise: number;
  /** subtotal - discount (not below 0) + shipping + delivery: what the provider charges. */
  totalPaise: number;
}

export type PaymentOrderCreated = {
  type: 'PaymentOrderCreated';
  data: PricedOrder & {
    razorpayOrderId: string;
    reservationId: string;
    /** The inventory holds taken for the lines (committed on payment, released on expiry). */
    holds: ReservedLine[];
    receipt: string;
    currency: 'INR';
    createdAt: string;
    /** When the hold lapses unpaid: short until the payment dialog opens (PaymentDialogOpened moves it). */
    expiresAt: string;
    /**
     * Who opened the checkout (`user:<id>` or `guest:<signed cookie id>`): only they may cancel it or say its
     * dialog opened. Absent on events recorded before it was kept.
     */
    buyerKey?: string;
  };
};

/** The buyer's payment dialog opened: the hold now lasts the full reservation time (until `expiresAt`). */
export type PaymentDialogOpened = {
  type: 'PaymentDialogOpened';
  data: { razorpayOrderId: string; expiresAt: string; openedAt: string };
};

/** Recorded once per provider order, whichever path (browser verify, webhook, reconciliation) came first. */
export type PaymentVerified = {
  type: 'PaymentVerified';
  data: PricedOrder & {
    razorpayOrderId: string;
    razorpayPaymentId: string;
    reservationId: string;
    holds: ReservedLine[];
    currency: 'INR';
    via: 'checkout' | 'webhook' | 'reconciliation';
    verifiedAt: string;
    /**
     * The order this payment becomes, numbered when the payment was recorded (from the order service's
     * numbers, OrderPlacementPort.allocateOrderNumbers), so verify can answer with it at once. Absent on
     * events recorded before it was kept, or when no number could be had: the placement numbers those.
     */
    orderNumber?: string;
  };
};

/**
 * Why an unpaid order ended: its hold lapsed, its buyer cancelled the payment dialog, the provider reported the
 * payment failed, or the buyer opened a newer checkout that replaced it.
 */
export type ExpiryReason = 'lapsed' | 'cancelled' | 'failed' | 'replaced';

/** The reservation ended unpaid: stock and coupon use were released. */
export type PaymentOrderExpired = {
  type: 'PaymentOrderExpired';
  /** `reason` is absent on events recorded before it was kept (read as 'lapsed'). */
  data: { razorpayOrderId: string; reservationId: string; expiredAt: string; reason?: ExpiryReason };
};

/**
 * A payment arrived for an order its buyer had cancelled or replaced, and its stock was held again (a new
 * reservation): the order is placed from it (PaymentVerified follows with the new reservation).
 */
export type PaymentOrderRevived = {
  type: 'PaymentOrderRevived';
  data: { razorpayOrderId: string; reservationId: string; holds: ReservedLine[]; revivedAt: string };
};

export type PaymentFailed = {
  type: 'PaymentFailed';
  data: { razorpayOrderId: string; reason: string; failedAt: string };
};

/**
 * A provider order opened from the documented fields only (amount, currency, receipt): the client sends the
 * cart at verify, where the server prices it and accepts the payment only if its total equals the amount.
 */
export type PaymentOrderOpened = {
  type: 'PaymentOrderOpened';
  data: {
    razorpayOrderId: string;
    amountPaise: number;
    receipt: string;
    currency: 'INR';
    userId: string | null;
    createdAt: string;
    expiresAt: string;
    /** Who opened it (see PaymentOrderCreated); absent on older events. */
    buyerKey?: string;
  };
};

/**
 * Why money taken cannot become an order: paid after the hold lapsed, the order refused at verify (stock gone),
 * a charge that differs from the price, an order opened without a cart that was paid but never placed (the
 * browser closed after paying, or verify refused the cart) when its hold lapsed; or a placed order was cancelled
 * (by its shopper or an admin: the payment that placed it is refunded).
 */
export type RefundReason = 'paid_after_expiry' | 'order_refused' | 'amount_mismatch' | 'never_placed' | 'order_cancelled';

/**
 * A captured payment is to be refunded in full (once per payment). Recorded before the provider is asked;
 * the refund is issued after the commit and recorded as PaymentRefunded.
 */
export type RefundDue = {
  type: 'RefundDue';
  data: {
    razorpayOrderId: string;
    razorpayPaymentId: string;
    /** What the provider order charged (paise). */
    amountPaise: number;
    reason: RefundReason;
    /** For operators: what went wrong, in words. */
    detail: string;
    /** The buyer's e-mail when the order knew it (null for an order opened without a cart). */
    customerEmail: string | null;
    dueAt: string;
  };
};

/** The provider refunded a due refund (its refund id and amount). */
export type PaymentRefunded = {
  type: 'PaymentRefunded';
  data: {
    razorpayOrderId: string;
    razorpayPaymentId: string;
    refundId: string;
    amountPaise: number;
    refundedAt: string;
  };
};

export type PaymentEvent =
  | PaymentOrderOpened
  | PaymentOrderCreated
  | PaymentDialogOpened
  | PaymentVerified
  | PaymentOrderExpired
  | PaymentOrderRevived
  | PaymentFailed
  | RefundDue
  | PaymentRefunded;

export const paymentStreamId = (razorpayOrderId: string) => `payment-${razorpayOrderId}`;
