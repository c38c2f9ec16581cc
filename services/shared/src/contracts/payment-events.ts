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
    expiresAt: string;
  };
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
  };
};

/** The reservation lapsed unpaid: stock and coupon use were released. */
export type PaymentOrderExpired = {
  type: 'PaymentOrderExpired';
  data: { razorpayOrderId: string; reservationId: string; expiredAt: string };
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
  };
};

/** Why money taken cannot become an order: paid after the hold lapsed, the order refused at verify (stock gone), a charge that differs from the price. */
export type RefundReason = 'paid_after_expiry' | 'order_refused' | 'amount_mismatch';

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
  | PaymentVerified
  | PaymentOrderExpired
  | PaymentFailed
  | RefundDue
  | PaymentRefunded;

export const paymentStreamId = (razorpayOrderId: string) => `payment-${razorpayOrderId}`;
