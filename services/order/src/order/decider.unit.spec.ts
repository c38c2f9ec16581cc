import { describe, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { DeliveryStatus, OrderDetails, OrderEvent } from './events.ts';
import { decideOrder, evolveOrder, initialOrderState, type OrderCommand } from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const later = new Date('2026-11-23T09:30:00Z');
const order: OrderDetails = {
  orderNumber: 'ORD-100001',
  razorpayOrderId: 'order_abc',
  razorpayPaymentId: 'pay_abc',
  userId: 'u1',
  customer: { name: 'Asha Rao', email: 'asha@example.in', phone: '+919812345678' },
  address: '12 MG Road, Bengaluru',
  pincode: '560001',
  lines: [
    {
      productId: 'p1',
      name: 'Linen Kurta',
      image: '/uploads/a.png',
      size: 'M',
      color: 'White',
      quantity: 2,
      unitPricePaise: 149900,
      lineTotalPaise: 299800,
    },
  ],
  subtotalPaise: 299800,
  couponCode: 'DIWALI10',
  discountPaise: 29980,
  shippingChargePaise: 0,
  deliveryChargePaise: 0,
  totalPaise: 269820,
};
const placed: OrderEvent = {
  type: 'OrderPlaced',
  data: { ...order, paymentStatus: 'Paid', deliveryStatus: 'Processing', placedAt: now.toISOString() },
};
const statusChanged = (from: DeliveryStatus, to: DeliveryStatus): OrderEvent => ({
  type: 'DeliveryStatusChanged',
  data: { orderNumber: order.orderNumber, from, to, changedBy: 'admin', changedAt: later.toISOString() },
});

/** given(events) / when(command) / then(events or error) */
const given = deciderSpec({ decide: decideOrder, evolve: evolveOrder, initialState: initialOrderState });
const setStatus = (to: DeliveryStatus): OrderCommand => ({
  type: 'ChangeDeliveryStatus',
  data: { to, changedBy: 'admin', now: later },
});
const markSeen: OrderCommand = { type: 'MarkOrderSeen', data: { seenBy: 'admin', now: later } };
const del: OrderCommand = { type: 'DeleteOrder', data: { deletedBy: 'admin', now: later } };
const deleted: OrderEvent = {
  type: 'OrderDeleted',
  data: { orderNumber: order.orderNumber, deletedBy: 'admin', deletedAt: later.toISOString() },
};

describe('order decider', () => {
  it('places a new order as paid and processing, once', () => {
    given([]).when({ type: 'PlaceOrder', data: { order, now } }).then([placed]);
    given([placed]).when({ type: 'PlaceOrder', data: { order, now } }).then('Order already exists');
  });

  it('changes the delivery status, recording where it came from', () => {
    given([placed])
      .when(setStatus('Out for Delivery'))
      .then([statusChanged('Processing', 'Out for Delivery')]);
    given([placed, statusChanged('Processing', 'Delivered')])
      .when(setStatus('Processing'))
      .then([statusChanged('Delivered', 'Processing')]);
  });

  it('records nothing when the status is already the one asked for', () => {
    given([placed]).when(setStatus('Processing')).then([]);
    given([placed, statusChanged('Processing', 'Delivered')])
      .when(setStatus('Delivered'))
      .then([]);
  });

  it('marks an order seen once', () => {
    const seen: OrderEvent = {
      type: 'OrderMarkedSeen',
      data: { orderNumber: order.orderNumber, seenBy: 'admin', seenAt: later.toISOString() },
    };
    given([placed]).when(markSeen).then([seen]);
    given([placed, seen]).when(markSeen).then([]);
  });

  it('deletes only a delivered order', () => {
    given([placed]).when(del).then('Only delivered orders can be deleted');
    given([placed, statusChanged('Processing', 'Out for Delivery')])
      .when(del)
      .then('Only delivered orders can be deleted');
    given([placed, statusChanged('Processing', 'Delivered')])
      .when(del)
      .then([deleted]);
  });

  it('treats an unknown or deleted order as not found', () => {
    for (const cmd of [setStatus('Delivered'), markSeen, del]) {
      given([]).when(cmd).then('Order not found');
      given([placed, statusChanged('Processing', 'Delivered'), deleted])
        .when(cmd)
        .then('Order not found');
    }
  });

  describe('shipping', () => {
    const shipment = {
      shipmentId: '100000001',
      awb: 'SR000100000001',
      courier: 'Sandbox Express',
      trackingUrl: '/shiprocket-sandbox/tracking/SR000100000001',
      shippingStatus: 'AWB ASSIGNED',
    };
    const created: OrderEvent = {
      type: 'ShipmentCreated',
      data: { orderNumber: order.orderNumber, ...shipment, createdAt: later.toISOString() },
    };
    const at = new Date('2026-11-24T08:00:00Z');
    const track = (shippingStatus: string, deliveryStatus: DeliveryStatus | null, updatedAt = at): OrderCommand => ({
      type: 'RecordTrackingUpdate',
      data: { awb: shipment.awb, shippingStatus, deliveryStatus, updatedAt, source: 'webhook', now: later },
    });
    const updated = (shippingStatus: string, updatedAt = at): OrderEvent => ({
      type: 'ShippingStatusUpdated',
      data: {
        orderNumber: order.orderNumber,
        awb: shipment.awb,
        shippingStatus,
        updatedAt: updatedAt.toISOString(),
        source: 'webhook',
      },
    });
    const byTracking = (from: DeliveryStatus, to: DeliveryStatus): OrderEvent => ({
      type: 'DeliveryStatusChanged',
      data: { orderNumber: order.orderNumber, from, to, changedBy: 'shiprocket', changedAt: later.toISOString() },
    });

    it('records the shipment once; the same AWB again records nothing, another one is refused', () => {
      given([placed])
        .when({ type: 'RecordShipment', data: { shipment, now: later } })
        .then([created]);
      given([placed, created])
        .when({ type: 'RecordShipment', data: { shipment, now: later } })
        .then([]);
      given([placed, created])
        .when({ type: 'RecordShipment', data: { shipment: { ...shipment, awb: 'SR9' }, now: later } })
        .then('The order already has a shipment');
      given([])
        .when({ type: 'RecordShipment', data: { shipment, now: later } })
        .then('Order not found');
    });

    it("records the provider's refusal once per reason, and none once the order has its shipment", () => {
      const refuse = (reason: string): OrderCommand => ({
        type: 'RecordShipmentRefusal',
        data: { reason, now: later },
      });
      const refused = (reason: string): OrderEvent => ({
        type: 'ShipmentRefused',
        data: { orderNumber: 'ORD-100001', reason, at: later.toISOString() },
      });
      const pincode = 'The billing pincode must be 6 digits.';
      given([placed])
        .when(refuse(` ${pincode} `))
        .then([refused(pincode)]);
      given([placed, refused(pincode)])
        .when(refuse(pincode))
        .then([]);
      given([placed, refused(pincode)])
        .when(refuse('Oops! Invalid Data.'))
        .then([refused('Oops! Invalid Data.')]);
      given([placed, refused(pincode), created])
        .when(refuse(pincode))
        .then([]);
      given([placed])
        .when(refuse('x'.repeat(500)))
        .then([refused('x'.repeat(300))]);
    });

    it('moves delivery forward with tracking: out for delivery, then delivered', () => {
      given([placed, created])
        .when(track('OUT FOR DELIVERY', 'Out for Delivery'))
        .then([updated('OUT FOR DELIVERY'), byTracking('Processing', 'Out for Delivery')]);
      const later2 = new Date('2026-11-24T12:00:00Z');
      given([placed, created, updated('OUT FOR DELIVERY'), byTracking('Processing', 'Out for Delivery')])
        .when(track('DELIVERED', 'Delivered', later2))
        .then([updated('DELIVERED', later2), byTracking('Out for Delivery', 'Delivered')]);
    });

    it('records an update that means no delivery status (in transit, return to origin, lost) as the shipping status only', () => {
      for (const status of ['IN TRANSIT', 'RTO INITIATED', 'LOST'])
        given([placed, created])
          .when(track(status, null))
          .then([updated(status)]);
    });

    it('records a redelivered update (same AWB, status and time) once', () => {
      given([placed, created, updated('OUT FOR DELIVERY'), byTracking('Processing', 'Out for Delivery')])
        .when(track('OUT FOR DELIVERY', 'Out for Delivery'))
        .then([]);
    });

    it('never moves delivery backwards: a late update after the admin set Delivered is recorded only', () => {
      given([placed, created, statusChanged('Processing', 'Delivered')])
        .when(track('OUT FOR DELIVERY', 'Out for Delivery'))
        .then([updated('OUT FOR DELIVERY')]);
      given([placed, created, statusChanged('Processing', 'Delivered')])
        .when(track('DELIVERED', 'Delivered'))
        .then([updated('DELIVERED')]);
    });

    it("refuses an update for another AWB, or an order with no shipment, as not this order's", () => {
      given([placed]).when(track('DELIVERED', 'Delivered')).then('No shipment with this AWB on the order');
      given([placed, created])
        .when({
          ...track('DELIVERED', 'Delivered'),
          data: { ...track('DELIVERED', 'Delivered').data, awb: 'OTHER' },
        } as OrderCommand)
        .then('No shipment with this AWB on the order');
    });
  });
});
