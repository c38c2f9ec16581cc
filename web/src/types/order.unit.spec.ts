import { describe, expect, it } from 'vitest';
import { applyOrderChange, orderSchema, parseOrderList, readOrderChange, type Order } from './order';

// The shopper's orders (GET /orders) and the admin's (GET /orders/admin/all) read with the one schema.

const order = (orderNumber: string, deliveryStatus = 'Processing'): Order =>
  orderSchema.parse({
    id: orderNumber,
    orderNumber,
    deliveryStatus,
    totalAmount: 1049,
    subtotal: 1099,
    discountAmount: 100,
    couponCode: 'SAVE100',
    shippingCharge: 0,
    deliveryCharge: 50,
    paymentStatus: 'Paid',
    items: [{ Product: { id: 'p1', name: 'Kurta' }, orderedQuantity: 1, size: 'M', color: null, totalAmount: 1099 }],
  });

/** An order as the admin's list sends it (no id; tracking fields and the seen flag). */
const adminRaw = (overrides: Record<string, unknown> = {}) => ({
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

describe('orders as the API sends them', () => {
  it('shows payment status Pending and delivery Processing when absent', () => {
    const [parsed] = parseOrderList([{ id: 1, orderNumber: 'ORD-1', totalAmount: '499.5', items: [] }]);
    expect(parsed).toMatchObject({ paymentStatus: 'Pending', deliveryStatus: 'Processing', totalAmount: 499.5 });
  });

  it("shows paymentStatus 'Pending' when none is sent and keeps the tracking fields", () => {
    const [parsed] = parseOrderList([adminRaw({ paymentStatus: null, shiprocketAWB: 'AWB123' })]);
    expect(parsed?.paymentStatus).toBe('Pending');
    expect(parsed?.shiprocketAWB).toBe('AWB123');
    expect(parsed?.items[0]?.Product.name).toBe('Kurta');
  });

  it('drops entries that cannot be shown (no order number)', () => {
    expect(parseOrderList([{ id: 1 }, order('ORD-2')]).map((o) => o.orderNumber)).toEqual(['ORD-2']);
    expect(parseOrderList([adminRaw(), { totalAmount: 5 }])).toHaveLength(1);
    expect(parseOrderList({ orders: [] })).toEqual([]);
  });
});

describe('pushed order changes', () => {
  it('read a full order and a deletion, and ignore anything else', () => {
    expect(readOrderChange(JSON.parse(JSON.stringify(order('ORD-1', 'Delivered'))))).toMatchObject({
      kind: 'upsert',
      order: { orderNumber: 'ORD-1', deliveryStatus: 'Delivered' },
    });
    expect(readOrderChange({ orderNumber: 'ORD-1', deleted: true })).toEqual({
      kind: 'deleted',
      orderNumber: 'ORD-1',
    });
    expect(readOrderChange('not json')).toBeNull();
    expect(readOrderChange({ hello: 1 })).toBeNull();
    expect(readOrderChange({ nonsense: true })).toBeNull();
  });

  it('replace a known order where it stands, put a new one on top and remove a deleted one', () => {
    const list = [order('ORD-2'), order('ORD-1')];
    applyOrderChange(list, { kind: 'upsert', order: order('ORD-1', 'Out for Delivery') });
    expect(list.map((o) => [o.orderNumber, o.deliveryStatus])).toEqual([
      ['ORD-2', 'Processing'],
      ['ORD-1', 'Out for Delivery'],
    ]);
    applyOrderChange(list, { kind: 'upsert', order: order('ORD-3') });
    expect(list.map((o) => o.orderNumber)).toEqual(['ORD-3', 'ORD-2', 'ORD-1']);
    applyOrderChange(list, { kind: 'deleted', orderNumber: 'ORD-2' });
    applyOrderChange(list, { kind: 'deleted', orderNumber: 'ORD-9' });
    expect(list.map((o) => o.orderNumber)).toEqual(['ORD-3', 'ORD-1']);
  });

  it("apply to the admin's list as they come: a change in place, a new order on top", () => {
    const list = parseOrderList([adminRaw({ orderNumber: 'ORD-2' }), adminRaw()]);
    const change = readOrderChange(adminRaw({ deliveryStatus: 'Delivered' }));
    if (change) applyOrderChange(list, change);
    expect(list.map((o) => [o.orderNumber, o.deliveryStatus])).toEqual([
      ['ORD-2', 'Processing'],
      ['ORD-1', 'Delivered'],
    ]);
    const added = readOrderChange(adminRaw({ orderNumber: 'ORD-3' }));
    if (added) applyOrderChange(list, added);
    expect(list.map((o) => o.orderNumber)).toEqual(['ORD-3', 'ORD-2', 'ORD-1']);
  });
});
