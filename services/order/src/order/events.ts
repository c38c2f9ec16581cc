import type { OrderCancelled } from '@shop/shared/contracts/order-cancellation';
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
/** The shipment made for the order at the shipping provider (Shiprocket): its AWB, courier and tracking page. */
export type ShipmentCreated = {
  type: 'ShipmentCreated';
  data: {
    orderNumber: string;
    shipmentId: string;
    /**
     * The provider's own id of the order (Shiprocket's order_id, what its cancel call takes). Absent from
     * shipments recorded before cancellation was added: the provider is asked for it then (shipment-cancellation.ts).
     */
    providerOrderId?: string;
    awb: string;
    courier: string;
    trackingUrl: string;
    /** The provider's status when the AWB was assigned (e.g. 'AWB ASSIGNED'). */
    shippingStatus: string;
    createdAt: string;
  };
};
/**
 * The provider refused to make the order's shipment (a permanent refusal, e.g. Shiprocket's 422 'The billing
 * pincode must be 6 digits.'): `reason` is its words. Not retried; the admin sees it (until a ShipmentCreated).
 * Once per reason: the same refusal again records nothing.
 */
export type ShipmentRefused = {
  type: 'ShipmentRefused';
  data: { orderNumber: string; reason: string; at: string };
};
/**
 * A tracking update of the shipment, as the provider reported it (its status words, e.g. 'OUT FOR DELIVERY',
 * 'RTO INITIATED'); `updatedAt` is the provider's time of it. At most once per (awb, shippingStatus, updatedAt),
 * whichever way it came: Shiprocket's webhook, or the tracking sweep asking Shiprocket when no webhook came.
 */
export type ShippingStatusUpdated = {
  type: 'ShippingStatusUpdated';
  data: { orderNumber: string; awb: string; shippingStatus: string; updatedAt: string; source: TrackingSource };
};
/** How a tracking update came: Shiprocket's webhook, or the tracking sweep's call to its tracking API. */
export type TrackingSource = 'webhook' | 'sweep';
export type { OrderCancelled };
/**
 * The provider confirmed the cancelled order's shipment is cancelled (Shiprocket: CANCELED; no courier comes
 * for it). At most once per order.
 */
export type ShipmentCancelled = {
  type: 'ShipmentCancelled';
  data: { orderNumber: string; awb: string; cancelledAt: string };
};
/** The provider refunded a cancelled order's payment (checkout's PaymentRefunded, recorded on the order). */
export type OrderRefunded = {
  type: 'OrderRefunded';
  data: { orderNumber: string; refundId: string; amountPaise: number; refundedAt: string };
};
export type OrderEvent =
  | OrderPlaced
  | DeliveryStatusChanged
  | OrderMarkedSeen
  | OrderDeleted
  | ShipmentCreated
  | ShipmentRefused
  | ShippingStatusUpdated
  | OrderCancelled
  | ShipmentCancelled
  | OrderRefunded;

/**
 * Shiprocket's statuses of a parcel not yet handed to the courier (an AWB is assigned as soon as the order is
 * placed; pickup comes later): while its status is one of these, or it has none, the order is not shipped.
 */
const NOT_YET_PICKED_UP: ReadonlySet<string> = new Set([
  'NEW',
  'AWB ASSIGNED',
  'PICKUP SCHEDULED',
  'PICKUP GENERATED',
  'PICKUP QUEUED',
  'PICKUP RESCHEDULED',
  'PICKUP ERROR',
  'MANIFEST GENERATED',
  'OUT FOR PICKUP',
]);
/** Whether a parcel in this shipping status has left with the courier. */
export const parcelShipped = (shippingStatus: string | null | undefined): boolean =>
  !!shippingStatus && !NOT_YET_PICKED_UP.has(shippingStatus);

/** The shipping status of a cancelled shipment, in Shiprocket's word. */
export const SHIPMENT_CANCELED = 'CANCELED';

/** The status a cancelled order shows (seeds: red badge); never among those an admin sets. */
export const CANCELLED = 'Cancelled';

export const ORDER_STREAM_PREFIX = 'order-';
export const orderStreamId = (orderNumber: string) => `${ORDER_STREAM_PREFIX}${orderNumber}`;
/** Order numbers as shoppers and admins see them: this prefix and the next value of orders.order_number_seq. */
export const ORDER_NUMBER_PREFIX = 'ORD-';
/** What an order number looks like (ORD-100001). */
export const ORDER_NUMBER_FORMAT = /^ORD-\d+$/;
