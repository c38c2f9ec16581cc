import type { PricedOrder } from '@shop/shared/contracts/payment-events';

/** Events of the `order-<orderNumber>` stream. Money is in paise (integers); times are ISO-8601. */

/** Statuses an admin may set (seed 001). 'Cancelled' is only ever displayed, never set here. */
export const DELIVERY_STATUSES = ['Processing', 'Out for Delivery', 'Delivered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface OrderCustomerDetails {
  name: string;
  email: string;
  phone: string;
}

/** What an order is, fixed when it is placed (the server's prices from checkout, never the client's). */
export type OrderDetails = Omit<PricedOrder, 'customer'> & {
  orderNumber: string;
  razorpayOrderId: string;
  razorpayPaymentId: string;
  /** The shopper's account, or null for a guest checkout. */
  userId: string | null;
  customer: OrderCustomerDetails;
};

export type OrderPlaced = {
  type: 'OrderPlaced';
  data: OrderDetails & { paymentStatus: 'Paid'; deliveryStatus: 'Processing'; placedAt: string };
};
export type DeliveryStatusChanged = {
  type: 'DeliveryStatusChanged';
  data: { orderNumber: string; from: DeliveryStatus; to: DeliveryStatus; changedBy: string; changedAt: string };
};
export type OrderMarkedSeen = {
  type: 'OrderMarkedSeen';
  data: { orderNumber: string; seenBy: string; seenAt: string };
};
export type OrderDeleted = {
  type: 'OrderDeleted';
  data: { orderNumber: string; deletedBy: string; deletedAt: string };
};
export type OrderEvent = OrderPlaced | DeliveryStatusChanged | OrderMarkedSeen | OrderDeleted;

export const ORDER_STREAM_PREFIX = 'order-';
export const orderStreamId = (orderNumber: string) => `${ORDER_STREAM_PREFIX}${orderNumber}`;
/** Order numbers as shoppers and admins see them: this prefix and the next value of orders.order_number_seq. */
export const ORDER_NUMBER_PREFIX = 'ORD-';
