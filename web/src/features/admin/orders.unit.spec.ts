import { describe, expect, it } from 'vitest';
import { applyOrderEvent, canDeleteOrder, orderNumberOfEvent, parseOrderList } from './orders';

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

describe('parseOrderList', () => {
  it("shows paymentStatus 'Pending' when none is sent and keeps the tracking fields", () => {
    const [order] = parseOrderList([raw({ paymentStatus: null, shiprocketAWB: 'AWB123' })]);
    expect(order?.paymentStatus).toBe('Pending');
    expect(order?.shiprocketAWB).toBe('AWB123');
    expect(order?.items[0]?.Product.name).toBe('Kurta');
  });

  it('drops entries without an order number', () => {
    expect(parseOrderList([raw(), { totalAmount: 5 }])).toHaveLength(1);
    expect(parseOrderList({ orders: [] })).toEqual([]);
  });
});

describe('canDeleteOrder', () => {
  it('allows only delivered orders', () => {
    expect(canDeleteOrder({ deliveryStatus: 'Delivered' })).toBe(true);
    expect(canDeleteOrder({ deliveryStatus: 'Out for Delivery' })).toBe(false);
    expect(canDeleteOrder({ deliveryStatus: 'Processing' })).toBe(false);
  });
});

describe('applyOrderEvent', () => {
  const list = parseOrderList([raw({ orderNumber: 'ORD-2' }), raw()]);

  it('replaces a changed order in place', () => {
    const next = applyOrderEvent(list, raw({ deliveryStatus: 'Delivered' }));
    expect(next.map((o) => [o.orderNumber, o.deliveryStatus])).toEqual([
      ['ORD-2', 'Processing'],
      ['ORD-1', 'Delivered'],
    ]);
  });

  it('puts a new order on top', () => {
    expect(applyOrderEvent(list, raw({ orderNumber: 'ORD-3' })).map((o) => o.orderNumber)).toEqual([
      'ORD-3',
      'ORD-2',
      'ORD-1',
    ]);
  });

  it('removes a deleted order and ignores what it cannot read', () => {
    expect(applyOrderEvent(list, { orderNumber: 'ORD-2', deleted: true }).map((o) => o.orderNumber)).toEqual(['ORD-1']);
    expect(applyOrderEvent(list, { nonsense: true })).toEqual(list);
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
