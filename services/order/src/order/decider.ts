import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import {
  DELIVERY_STATUSES,
  parcelShipped,
  SHIPMENT_CANCELED,
  type DeliveryStatus,
  type OrderCancelled,
  type OrderDetails,
  type OrderEvent,
  type ShipmentCreated,
  type TrackingSource,
} from './events.ts';

/** What a cancellation refunds and gives back (fixed when the order is placed). */
type OrderPayment = Pick<OrderDetails, 'razorpayOrderId' | 'razorpayPaymentId' | 'couponCode' | 'totalPaise'>;

export type OrderState =
  | { status: 'none' }
  | {
      status: 'placed';
      orderNumber: string;
      userId: string | null;
      deliveryStatus: DeliveryStatus;
      seen: boolean;
      /** The shipment's AWB, once one is made; the tracking updates recorded (trackingKey). */
      awb?: string;
      tracked?: readonly string[];
      /** The shipment's latest shipping status (parcelShipped). */
      shippingStatus?: string;
      payment?: OrderPayment;
      /** Cancelled (OrderCancelled), and its payment refunded (OrderRefunded). */
      cancelled?: boolean;
      refunded?: boolean;
      /** Its shipment cancelled at the provider (ShipmentCancelled). */
      shipmentCancelled?: boolean;
      /** Why the provider refused to make its shipment (ShipmentRefused), until a shipment is made. */
      shipmentRefused?: string;
    }
  | { status: 'deleted'; orderNumber: string };

export type PlaceOrder = { type: 'PlaceOrder'; data: { order: OrderDetails; now: Date } };
export type ChangeDeliveryStatus = {
  type: 'ChangeDeliveryStatus';
  data: { to: DeliveryStatus; changedBy: string; now: Date };
};
export type MarkOrderSeen = { type: 'MarkOrderSeen'; data: { seenBy: string; now: Date } };
export type DeleteOrder = { type: 'DeleteOrder'; data: { deletedBy: string; now: Date } };
/** The shipment the provider made for the order (recorded once; the same AWB again records nothing). */
export type RecordShipment = {
  type: 'RecordShipment';
  data: { shipment: Omit<ShipmentCreated['data'], 'orderNumber' | 'createdAt'>; now: Date };
};
/** The provider refused to make the order's shipment, in its words (recorded once per reason). */
export type RecordShipmentRefusal = {
  type: 'RecordShipmentRefusal';
  data: { reason: string; now: Date };
};
/** The longest refusal reason recorded (the provider's message, cut to this many characters). */
export const SHIPMENT_REFUSAL_MAX_LENGTH = 300;
/**
 * A tracking update from the provider: its status, the delivery status it means (null: none, e.g. in transit
 * or a return to origin), the provider's time of it, and how it came (webhook or sweep).
 */
export type RecordTrackingUpdate = {
  type: 'RecordTrackingUpdate';
  data: {
    awb: string;
    shippingStatus: string;
    deliveryStatus: DeliveryStatus | null;
    updatedAt: Date;
    source: TrackingSource;
    now: Date;
  };
};
/** By the shopper (their own order, canShopperCancel) or an admin (any order not delivered, a reason). */
export type CancelOrder = {
  type: 'CancelOrder';
  data: { as: OrderCancelled['data']['cancelledAs']; by: string; reason: string; now: Date };
};
/**
 * The provider cancelled the shipment of this (cancelled) order (shipping/shipment-cancellation.ts); once: again
 * records nothing.
 */
export type RecordShipmentCancellation = {
  type: 'RecordShipmentCancellation';
  data: { awb: string; now: Date };
};
/** The provider refunded this payment (checkout's PaymentRefunded). */
export type RecordOrderRefund = {
  type: 'RecordOrderRefund';
  data: { razorpayPaymentId: string; refundId: string; amountPaise: number; refundedAt: string };
};
export type OrderCommand =
  | PlaceOrder
  | ChangeDeliveryStatus
  | MarkOrderSeen
  | DeleteOrder
  | RecordShipment
  | RecordShipmentRefusal
  | RecordTrackingUpdate
  | CancelOrder
  | RecordShipmentCancellation
  | RecordOrderRefund;

export const ONLY_DELIVERED_CAN_BE_DELETED = 'Only delivered orders can be deleted';

export const NO_SUCH_SHIPMENT = 'No shipment with this AWB on the order';
export const ORDER_HAS_A_SHIPMENT = 'The order already has a shipment';
export const SHIPMENT_OF_A_LIVE_ORDER = 'Only a cancelled order has its shipment cancelled';

/** Whether the order's shipment is to be cancelled at the provider: the order is cancelled, its shipment not yet. */
export const shipmentToCancel = (s: OrderState): s is Extract<OrderState, { status: 'placed' }> & { awb: string } =>
  s.status === 'placed' && !!s.cancelled && !!s.awb && !s.shipmentCancelled;

/** What makes a tracking update the same one again (a redelivered webhook): its AWB, status and time. */
export const trackingKey = (awb: string, shippingStatus: string, updatedAt: string) =>
  `${awb}|${shippingStatus}|${updatedAt}`;

export const ORDER_CANCELLED_CONFLICT = 'This order has been cancelled';
export const DELIVERED_CANNOT_BE_CANCELLED = 'This order has been delivered and can no longer be cancelled';
export const SHIPPED_CANNOT_BE_CANCELLED =
  'This order is no longer being processed and can no longer be cancelled; please contact us';

/**
 * Whether the shopper may still cancel: the one rule for it (the API, the decider and My Orders' button).
 * Processing and not yet shipped: its parcel, if it has one, not yet with the courier (an AWB is assigned as
 * soon as the order is placed; pickup comes later).
 */
export const canShopperCancel = (s: { deliveryStatus: string; cancelled?: boolean; shippingStatus?: string | null }) =>
  !s.cancelled && !parcelShipped(s.shippingStatus) && s.deliveryStatus === 'Processing';
/** Whether an admin may still cancel: any order not cancelled and not delivered. */
export const canAdminCancel = (s: { deliveryStatus: string; cancelled?: boolean }) =>
  !s.cancelled && s.deliveryStatus !== 'Delivered';

export const initialOrderState = (): OrderState => ({ status: 'none' });

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced':
      return {
        status: 'placed',
        orderNumber: event.data.orderNumber,
        userId: event.data.userId,
        deliveryStatus: event.data.deliveryStatus,
        seen: false,
        payment: {
          razorpayOrderId: event.data.razorpayOrderId,
          razorpayPaymentId: event.data.razorpayPaymentId,
          couponCode: event.data.couponCode,
          totalPaise: event.data.totalPaise,
        },
      };
    case 'DeliveryStatusChanged':
      return state.status === 'placed' ? { ...state, deliveryStatus: event.data.to } : state;
    case 'OrderMarkedSeen':
      return state.status === 'placed' ? { ...state, seen: true } : state;
    case 'OrderDeleted':
      return state.status === 'placed' ? { status: 'deleted', orderNumber: state.orderNumber } : state;
    case 'ShipmentCreated':
      return state.status === 'placed'
        ? { ...state, awb: event.data.awb, shippingStatus: event.data.shippingStatus, shipmentRefused: undefined }
        : state;
    case 'ShipmentRefused':
      return state.status === 'placed' ? { ...state, shipmentRefused: event.data.reason } : state;
    case 'ShippingStatusUpdated': {
      if (state.status !== 'placed') return state;
      const { awb, shippingStatus, updatedAt } = event.data;
      return {
        ...state,
        shippingStatus,
        tracked: [...(state.tracked ?? []), trackingKey(awb, shippingStatus, updatedAt)],
      };
    }
    case 'OrderCancelled':
      return state.status === 'placed' ? { ...state, cancelled: true } : state;
    case 'ShipmentCancelled':
      return state.status === 'placed'
        ? { ...state, shipmentCancelled: true, shippingStatus: SHIPMENT_CANCELED }
        : state;
    case 'OrderRefunded':
      return state.status === 'placed' ? { ...state, refunded: true } : state;
  }
}

/** A deleted order is gone for every command: the admin list no longer shows it. */
const placed = (state: OrderState) => {
  if (state.status !== 'placed') throw new NotFoundError('Order not found');
  return state;
};

export function decideOrder(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'PlaceOrder': {
      if (state.status !== 'none') throw new ConflictError('Order already exists');
      const { order, now } = command.data;
      return [
        {
          type: 'OrderPlaced',
          data: { ...order, paymentStatus: 'Paid', deliveryStatus: 'Processing', placedAt: now.toISOString() },
        },
      ];
    }
    case 'ChangeDeliveryStatus': {
      const s = placed(state);
      const { to, changedBy, now } = command.data;
      if (s.cancelled) throw new ConflictError(ORDER_CANCELLED_CONFLICT);
      if (s.deliveryStatus === to) return [];
      return [
        {
          type: 'DeliveryStatusChanged',
          data: { orderNumber: s.orderNumber, from: s.deliveryStatus, to, changedBy, changedAt: now.toISOString() },
        },
      ];
    }
    case 'MarkOrderSeen': {
      const s = placed(state);
      if (s.seen) return [];
      return [
        {
          type: 'OrderMarkedSeen',
          data: { orderNumber: s.orderNumber, seenBy: command.data.seenBy, seenAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'DeleteOrder': {
      const s = placed(state);
      if (s.deliveryStatus !== 'Delivered') throw new ConflictError(ONLY_DELIVERED_CAN_BE_DELETED);
      return [
        {
          type: 'OrderDeleted',
          data: {
            orderNumber: s.orderNumber,
            deletedBy: command.data.deletedBy,
            deletedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordShipment': {
      const s = placed(state);
      const { shipment, now } = command.data;
      if (s.awb === shipment.awb) return [];
      if (s.awb) throw new ConflictError(ORDER_HAS_A_SHIPMENT);
      // A cancelled order's shipment is recorded too (made while the cancel landed): the parcel exists at the
      // provider, and the shipment cancellation cancels it.
      return [
        { type: 'ShipmentCreated', data: { orderNumber: s.orderNumber, ...shipment, createdAt: now.toISOString() } },
      ];
    }
    case 'RecordShipmentRefusal': {
      const s = placed(state);
      const reason = command.data.reason.trim().slice(0, SHIPMENT_REFUSAL_MAX_LENGTH);
      // An order with its shipment has nothing refused; the same refusal again records nothing.
      if (s.awb || s.shipmentRefused === reason) return [];
      return [
        { type: 'ShipmentRefused', data: { orderNumber: s.orderNumber, reason, at: command.data.now.toISOString() } },
      ];
    }
    case 'RecordTrackingUpdate': {
      const s = placed(state);
      const { awb, shippingStatus, deliveryStatus: to, source, now } = command.data;
      if (s.awb !== awb) throw new NotFoundError(NO_SUCH_SHIPMENT);
      const updatedAt = command.data.updatedAt.toISOString();
      if (s.tracked?.includes(trackingKey(awb, shippingStatus, updatedAt))) return [];
      const events: OrderEvent[] = [
        {
          type: 'ShippingStatusUpdated',
          data: { orderNumber: s.orderNumber, awb, shippingStatus, updatedAt, source },
        },
      ];
      // Tracking only moves delivery forward (Processing -> Out for Delivery -> Delivered): an update that
      // would move it back, or past an order no longer on that way (a cancelled one), is recorded and changes nothing
      // else.
      const from = (DELIVERY_STATUSES as readonly string[]).indexOf(s.deliveryStatus);
      if (to && !s.cancelled && from >= 0 && DELIVERY_STATUSES.indexOf(to) > from)
        events.push({
          type: 'DeliveryStatusChanged',
          data: {
            orderNumber: s.orderNumber,
            from: s.deliveryStatus,
            to,
            changedBy: 'shiprocket',
            changedAt: now.toISOString(),
          },
        });
      return events;
    }
    case 'CancelOrder':
      return decideCancel(command.data, placed(state));
    case 'RecordShipmentCancellation': {
      const s = placed(state);
      const { awb, now } = command.data;
      if (s.awb !== awb) throw new NotFoundError(NO_SUCH_SHIPMENT);
      if (s.shipmentCancelled) return [];
      // Only a cancelled order's shipment is cancelled (a live order keeps its parcel).
      if (!s.cancelled) throw new ConflictError(SHIPMENT_OF_A_LIVE_ORDER);
      return [{ type: 'ShipmentCancelled', data: { orderNumber: s.orderNumber, awb, cancelledAt: now.toISOString() } }];
    }
    case 'RecordOrderRefund': {
      const s = placed(state);
      const d = command.data;
      // Only the refund of a cancelled order's own payment, once.
      if (!s.cancelled || s.refunded || s.payment?.razorpayPaymentId !== d.razorpayPaymentId) return [];
      const { razorpayPaymentId: _p, ...refund } = d;
      return [{ type: 'OrderRefunded', data: { orderNumber: s.orderNumber, ...refund } }];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}

function decideCancel(
  { as, by, reason, now }: CancelOrder['data'],
  s: Extract<OrderState, { status: 'placed' }>,
): OrderEvent[] {
  if (s.cancelled) throw new ConflictError('This order has already been cancelled');
  if (as === 'shopper') {
    // Someone else's order is not found, as a foreign order is everywhere else.
    if (s.userId !== by) throw new NotFoundError('Order not found');
    if (!canShopperCancel(s))
      throw new ConflictError(
        s.deliveryStatus === 'Delivered' ? DELIVERED_CANNOT_BE_CANCELLED : SHIPPED_CANNOT_BE_CANCELLED,
      );
  } else {
    if (!canAdminCancel(s)) throw new ConflictError(DELIVERED_CANNOT_BE_CANCELLED);
    if (!reason.trim()) throw new ValidationError('A reason is required to cancel an order');
  }
  if (!s.payment) throw new ConflictError('This order has no payment on record to refund');
  return [
    {
      type: 'OrderCancelled',
      data: {
        orderNumber: s.orderNumber,
        userId: s.userId,
        reason: reason.trim(),
        cancelledBy: by,
        cancelledAs: as,
        cancelledAt: now.toISOString(),
        ...s.payment,
      },
    },
  ];
}
