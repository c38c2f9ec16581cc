import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { DeliveryStatus, OrderEvent } from './events.ts';
import {
  canShopperCancel,
  DELIVERED_CANNOT_BE_CANCELLED,
  decideOrder,
  evolveOrder,
  initialOrderState,
  ORDER_CANCELLED_CONFLICT,
  SHIPMENT_OF_A_LIVE_ORDER,
  SHIPPED_CANNOT_BE_CANCELLED,
  shipmentToCancel,
  type OrderCommand,
} from './decider.ts';

const placedAt = '2026-11-22T10:00:00.000Z';
const now = new Date('2026-11-22T12:00:00Z');
const placed: OrderEvent = {
  type: 'OrderPlaced',
  data: {
    orderNumber: 'ORD-100001',
    razorpayOrderId: 'order_abc',
    razorpayPaymentId: 'pay_abc',
    userId: 'shopper-1',
    customer: { name: 'Asha Rao', email: 'asha@example.in', phone: '+919812345678' },
    address: '12 MG Road, Bengaluru',
    pincode: '560001',
    lines: [],
    subtotalPaise: 299800,
    couponCode: 'DIWALI10',
    discountPaise: 29980,
    shippingChargePaise: 0,
    deliveryChargePaise: 0,
    totalPaise: 269820,
    paymentStatus: 'Paid',
    deliveryStatus: 'Processing',
    placedAt,
  },
};
const moved = (from: DeliveryStatus, to: DeliveryStatus): OrderEvent => ({
  type: 'DeliveryStatusChanged',
  data: { orderNumber: 'ORD-100001', from, to, changedBy: 'admin-1', changedAt: placedAt },
});
const byShopper = (by = 'shopper-1'): OrderCommand => ({
  type: 'CancelOrder',
  data: { as: 'shopper', by, reason: 'Cancelled by the customer', now },
});
const byAdmin = (reason = 'Out of stock at the warehouse'): OrderCommand => ({
  type: 'CancelOrder',
  data: { as: 'admin', by: 'admin-1', reason, now },
});
const cancelled = (as: 'shopper' | 'admin', by: string, reason: string): OrderEvent => ({
  type: 'OrderCancelled',
  data: {
    orderNumber: 'ORD-100001',
    userId: 'shopper-1',
    reason,
    cancelledBy: by,
    cancelledAs: as,
    cancelledAt: now.toISOString(),
    razorpayOrderId: 'order_abc',
    razorpayPaymentId: 'pay_abc',
    couponCode: 'DIWALI10',
    totalPaise: 269820,
  },
});
const refund = (paymentId = 'pay_abc'): OrderCommand => ({
  type: 'RecordOrderRefund',
  data: { razorpayPaymentId: paymentId, refundId: 'rfnd_1', amountPaise: 269820, refundedAt: now.toISOString() },
});
const refunded: OrderEvent = {
  type: 'OrderRefunded',
  data: { orderNumber: 'ORD-100001', refundId: 'rfnd_1', amountPaise: 269820, refundedAt: now.toISOString() },
};

const given = deciderSpec({ decide: decideOrder, evolve: evolveOrder, initialState: initialOrderState });

describe('order decider: cancellation', () => {
  it('the shopper cancels their own order while it is Processing, with what the refund needs', () => {
    given([placed])
      .when(byShopper())
      .then([cancelled('shopper', 'shopper-1', 'Cancelled by the customer')]);
  });

  it("the shopper cannot cancel someone else's order (not found), nor one out for delivery or delivered", () => {
    given([placed]).when(byShopper('shopper-2')).then(NotFoundError);
    given([placed, moved('Processing', 'Out for Delivery')])
      .when(byShopper())
      .then(SHIPPED_CANNOT_BE_CANCELLED);
    given([placed, moved('Processing', 'Delivered')])
      .when(byShopper())
      .then(DELIVERED_CANNOT_BE_CANCELLED);
  });

  it('a shipment: the shopper may cancel while the parcel awaits pickup, not once the courier has it', () => {
    const shipment: OrderEvent = {
      type: 'ShipmentCreated',
      data: {
        orderNumber: 'ORD-100001',
        shipmentId: 'ship_1',
        awb: 'AWB1',
        courier: 'Sandbox Express',
        trackingUrl: 'https://example.in/t/AWB1',
        shippingStatus: 'AWB ASSIGNED',
        createdAt: placedAt,
      },
    };
    const pickedUp: OrderEvent = {
      type: 'ShippingStatusUpdated',
      data: {
        orderNumber: 'ORD-100001',
        awb: 'AWB1',
        shippingStatus: 'PICKED UP',
        updatedAt: placedAt,
        source: 'webhook',
      },
    };
    given([placed, shipment])
      .when(byShopper())
      .then([cancelled('shopper', 'shopper-1', 'Cancelled by the customer')]);
    given([placed, shipment, pickedUp]).when(byShopper()).then(SHIPPED_CANNOT_BE_CANCELLED);
    // A tracking update after the cancellation is recorded, and moves no delivery status.
    given([placed, shipment, cancelled('admin', 'admin-1', 'Lost in the warehouse')])
      .when({
        type: 'RecordTrackingUpdate',
        data: {
          awb: 'AWB1',
          shippingStatus: 'DELIVERED',
          deliveryStatus: 'Delivered',
          updatedAt: now,
          source: 'webhook',
          now,
        },
      })
      .then([
        {
          type: 'ShippingStatusUpdated',
          data: {
            orderNumber: 'ORD-100001',
            awb: 'AWB1',
            shippingStatus: 'DELIVERED',
            updatedAt: now.toISOString(),
            source: 'webhook',
          },
        },
      ]);
  });

  it('an admin cancels any order not delivered, with a reason', () => {
    given([placed, moved('Processing', 'Out for Delivery')])
      .when(byAdmin())
      .then([cancelled('admin', 'admin-1', 'Out of stock at the warehouse')]);
    given([placed]).when(byAdmin('   ')).then(ValidationError);
    given([placed, moved('Processing', 'Delivered')])
      .when(byAdmin())
      .then(DELIVERED_CANNOT_BE_CANCELLED);
  });

  it('an order is cancelled once; after it, no status change, and a Delivered that came first wins', () => {
    const c = cancelled('shopper', 'shopper-1', 'Cancelled by the customer');
    given([placed, c]).when(byAdmin()).then('This order has already been cancelled');
    given([placed, c]).when(byShopper()).then('This order has already been cancelled');
    given([placed, c])
      .when({ type: 'ChangeDeliveryStatus', data: { to: 'Delivered', changedBy: 'admin-1', now } })
      .then(ORDER_CANCELLED_CONFLICT);
  });

  it("records the refund of the cancelled order's own payment, once; nothing for another payment or a live order", () => {
    const c = cancelled('admin', 'admin-1', 'Customer asked by phone');
    given([placed, c]).when(refund()).then([refunded]);
    given([placed, c, refunded]).when(refund()).then([]);
    given([placed, c]).when(refund('pay_other')).then([]);
    given([placed]).when(refund()).then([]);
  });

  it('canShopperCancel: Processing, not cancelled, and its parcel not yet with the courier', () => {
    expect(canShopperCancel({ deliveryStatus: 'Processing' })).toBe(true);
    expect(canShopperCancel({ deliveryStatus: 'Processing', shippingStatus: 'AWB ASSIGNED' })).toBe(true);
    expect(canShopperCancel({ deliveryStatus: 'Processing', shippingStatus: 'PICKUP SCHEDULED' })).toBe(true);
    expect(canShopperCancel({ deliveryStatus: 'Processing', shippingStatus: 'PICKED UP' })).toBe(false);
    expect(canShopperCancel({ deliveryStatus: 'Processing', shippingStatus: 'IN TRANSIT' })).toBe(false);
    expect(canShopperCancel({ deliveryStatus: 'Processing', cancelled: true })).toBe(false);
    expect(canShopperCancel({ deliveryStatus: 'Out for Delivery' })).toBe(false);
    expect(canShopperCancel({ deliveryStatus: 'Cancelled' })).toBe(false);
  });
});

describe('order decider: cancelling the shipment of a cancelled order', () => {
  const created: OrderEvent = {
    type: 'ShipmentCreated',
    data: {
      orderNumber: 'ORD-100001',
      shipmentId: '100000001',
      providerOrderId: '7',
      awb: 'SR000100000001',
      courier: 'Sandbox Express',
      trackingUrl: 'https://example.in/t/SR000100000001',
      shippingStatus: 'AWB ASSIGNED',
      createdAt: placedAt,
    },
  };
  const { orderNumber: _n, createdAt: _c, ...shipment } = created.data;
  const c = cancelled('shopper', 'shopper-1', 'Cancelled by the customer');
  const cancelShipment = (awb = 'SR000100000001'): OrderCommand => ({
    type: 'RecordShipmentCancellation',
    data: { awb, now },
  });
  const shipmentCancelled: OrderEvent = {
    type: 'ShipmentCancelled',
    data: { orderNumber: 'ORD-100001', awb: 'SR000100000001', cancelledAt: now.toISOString() },
  };

  it("records the provider's cancellation once; again records nothing", () => {
    given([placed, created, c]).when(cancelShipment()).then([shipmentCancelled]);
    given([placed, created, c, shipmentCancelled]).when(cancelShipment()).then([]);
  });

  it("refuses it for a live order's shipment, another AWB, or an order with no shipment", () => {
    given([placed, created]).when(cancelShipment()).then(SHIPMENT_OF_A_LIVE_ORDER);
    given([placed, created, c]).when(cancelShipment('SR9')).then(NotFoundError);
    given([placed, c]).when(cancelShipment()).then(NotFoundError);
  });

  it('records a shipment made while the cancel landed: the parcel exists, so it is cancelled in turn', () => {
    given([placed, c])
      .when({ type: 'RecordShipment', data: { shipment, now } })
      .then([{ ...created, data: { ...created.data, createdAt: now.toISOString() } }]);
    given([placed, c, created]).when(cancelShipment()).then([shipmentCancelled]);
  });

  it('shipmentToCancel: a cancelled order with a shipment not yet cancelled, whichever came first', () => {
    const state = (events: OrderEvent[]) => events.reduce(evolveOrder, initialOrderState());
    expect(shipmentToCancel(state([placed, created, c]))).toBe(true);
    expect(shipmentToCancel(state([placed, c, created]))).toBe(true);
    expect(shipmentToCancel(state([placed, created]))).toBe(false);
    expect(shipmentToCancel(state([placed, c]))).toBe(false);
    expect(shipmentToCancel(state([placed, created, c, shipmentCancelled]))).toBe(false);
    expect(state([placed, created, c, shipmentCancelled])).toMatchObject({ shippingStatus: 'CANCELED' });
  });
});
