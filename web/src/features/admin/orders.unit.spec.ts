import { describe, expect, it } from 'vitest';
import { canDeleteOrder, orderNumberOfEvent, shipmentProblemText, shippingNeedsAction } from './orders';
import { orderSchema } from '@/types/order';

const raw = (overrides: Record<string, unknown> = {}) => ({
  orderNumber: 'ORD-1',
  createdAt: '2026-11-22T10:00:00.000Z',
  deliveryStatus: 'Processing',
  totalAmount: 1499.5,
  customerName: 'Asha Rao',
  customerPhone: '+919800000000',
  customerEmail: 'asha@example.in',
  address: '12 MG Road',
  paymentStatus: 'Paid',
  shiprocketAWB: null,
  shiprocketTrackingUrl: null,
  shiprocketStatus: null,
  seen: false,
  items: [{ Product: { id: 'p1', name: 'Kurta' }, orderedQuantity: 2, size: 'M', color: null, totalAmount: 1499.5 }],
  ...overrides,
});

describe('canDeleteOrder', () => {
  it('allows only delivered orders', () => {
    expect(canDeleteOrder({ deliveryStatus: 'Delivered' })).toBe(true);
    expect(canDeleteOrder({ deliveryStatus: 'Out for Delivery' })).toBe(false);
    expect(canDeleteOrder({ deliveryStatus: 'Processing' })).toBe(false);
  });
});

describe('shippingNeedsAction', () => {
  it('flags a return to origin, a lost and an undelivered parcel, not one on its way or delivered', () => {
    for (const status of ['RTO INITIATED', 'RTO DELIVERED', 'LOST', 'UNDELIVERED', 'rto initiated'])
      expect(shippingNeedsAction(status), status).toBe(true);
    for (const status of ['AWB ASSIGNED', 'IN TRANSIT', 'OUT FOR DELIVERY', 'DELIVERED', null, undefined])
      expect(shippingNeedsAction(status), String(status)).toBe(false);
  });
});

describe('shipmentProblemText', () => {
  it("says why Shiprocket refused the shipment, from the order's shipmentProblem", () => {
    const refused = orderSchema.parse(raw({ shipmentProblem: 'The billing pincode must be 6 digits.' }));
    expect(shipmentProblemText(refused)).toBe('Shiprocket refused the shipment: The billing pincode must be 6 digits.');
  });

  it('says nothing with no problem (also from a server that sends none), or once the order is cancelled', () => {
    expect(shipmentProblemText(orderSchema.parse(raw()))).toBeNull();
    expect(shipmentProblemText(orderSchema.parse(raw({ shipmentProblem: '  ' })))).toBeNull();
    expect(
      shipmentProblemText(orderSchema.parse(raw({ deliveryStatus: 'Cancelled', shipmentProblem: 'Refused.' }))),
    ).toBeNull();
  });
});

describe('orderNumberOfEvent', () => {
  it('names the order of a change or a removal, and nothing for an unreadable event', () => {
    expect(orderNumberOfEvent(raw())).toBe('ORD-1');
    expect(orderNumberOfEvent({ orderNumber: 'ORD-2', deleted: true })).toBe('ORD-2');
    expect(orderNumberOfEvent({ orderNumber: '' })).toBeNull();
    expect(orderNumberOfEvent('junk')).toBeNull();
  });
});
