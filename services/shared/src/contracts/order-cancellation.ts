/**
 * The order service's `OrderCancelled` (on `order-<orderNumber>`), as other services react to it: checkout
 * returns the stock and the coupon use and refunds the payment; mail tells the shopper. Money in paise.
 */
export type OrderCancelled = {
  type: 'OrderCancelled';
  data: {
    orderNumber: string;
    /** The shopper's account (null: a guest order). */
    userId: string | null;
    /** Why, in the admin's words (the shopper's: 'Cancelled by the customer'). */
    reason: string;
    /** Who cancelled it: the account id of the shopper or the admin. */
    cancelledBy: string;
    /** Whether the shopper or an admin cancelled it. */
    cancelledAs: 'shopper' | 'admin';
    cancelledAt: string;
    razorpayOrderId: string;
    razorpayPaymentId: string;
    couponCode: string | null;
    /** What was charged, and is refunded. */
    totalPaise: number;
  };
};

/** What a shopper's cancellation records as its reason. */
export const SHOPPER_CANCEL_REASON = 'Cancelled by the customer';
