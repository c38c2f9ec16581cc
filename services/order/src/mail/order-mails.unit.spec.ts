import { describe, expect, it } from 'vitest';
import { composeMail } from '@shop/shared/mail/compose';
import { paymentVerifiedData } from '../testing/payments.ts';
import { ORDER_MAIL_EVENT_TYPES, orderMailFor, type PlacedOrder } from './order-mails.ts';

const order: PlacedOrder = {
  ...paymentVerifiedData(),
  orderNumber: 'ORD-100042',
  userId: null,
  customer: { name: 'Asha', email: 'asha@example.in', phone: '+919812345678' },
  paymentStatus: 'Paid',
  deliveryStatus: 'Processing',
  placedAt: '2026-11-22T10:15:00.000Z',
};
const links = { orderPage: 'https://shop.example.in/order-confirmation#t' };

describe('order mails: one entry per event type', () => {
  it('answers the mail an event calls for, and none for a status that calls for none or data it cannot read', () => {
    expect(ORDER_MAIL_EVENT_TYPES).toEqual(
      expect.arrayContaining(['OrderPlaced', 'DeliveryStatusChanged', 'ShipmentCreated', 'OrderCancelled']),
    );
    expect(orderMailFor('DeliveryStatusChanged', { to: 'Out for Delivery' }, order, links)?.kind).toBe(
      'out-for-delivery',
    );
    expect(orderMailFor('DeliveryStatusChanged', { to: 'Delivered' }, order, links)?.kind).toBe('delivered');
    expect(orderMailFor('DeliveryStatusChanged', { to: 'Processing' }, order, links)).toBeNull();
    expect(orderMailFor('OrderMarkedSeen', { seenBy: 'admin' }, order, links)).toBeNull();
    expect(orderMailFor('ShipmentCreated', { courier: 'Delhivery' }, order, links)).toBeNull();
  });

  it('links the tracking page of a shipment, and says why an order was cancelled (escaped in HTML)', () => {
    const shipped = orderMailFor(
      'ShipmentCreated',
      { awb: '1234567890', trackingUrl: 'https://shiprocket.co/tracking/1234567890', courier: 'Delhivery' },
      order,
      links,
    )!;
    expect(shipped.subject).toBe('Your order ORD-100042 has shipped');
    expect(composeMail(shipped.content).text).toContain('Track your parcel: https://shiprocket.co/tracking/1234567890');
    expect(composeMail(shipped.content).text).toContain('Tracking number (AWB): 1234567890');

    const cancelled = orderMailFor('OrderCancelled', { reason: 'Size <M> out of stock' }, order, links)!;
    const { text, html } = composeMail(cancelled.content);
    expect(text).toContain('Your order ORD-100042 is cancelled: Size <M> out of stock');
    expect(text).toContain('₹2,749.10');
    expect(html).toContain('Size &lt;M&gt; out of stock');
  });
});
