import { describe, expect, it } from 'vitest';
import {
  applyOrderChange,
  orderSchema,
  orderTotals,
  parseOrderChange,
  parseOrderList,
  type Order,
} from './order-schema';

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

describe('orders as the API sends them', () => {
  it('shows payment status Pending and delivery Processing when absent', () => {
    const [parsed] = parseOrderList([{ id: 1, orderNumber: 'ORD-1', totalAmount: '499.5', items: [] }]);
    expect(parsed).toMatchObject({ paymentStatus: 'Pending', deliveryStatus: 'Processing', totalAmount: 499.5 });
  });

  it('drops entries that cannot be shown', () => {
    expect(parseOrderList([{ id: 1 }, order('ORD-2')]).map((o) => o.orderNumber)).toEqual(['ORD-2']);
    expect(parseOrderList({ orders: [] })).toEqual([]);
  });

  it('totals subtotal, discount, delivery (shipping + delivery) and the charged total', () => {
    expect(orderTotals(order('ORD-1'))).toEqual({ subtotal: 1099, discount: 100, delivery: 50, total: 1049 });
  });
});

describe('pushed order changes', () => {
  it('read a full order and a deletion, and ignore anything else', () => {
    expect(parseOrderChange(JSON.stringify(order('ORD-1', 'Delivered')))).toMatchObject({
      kind: 'upsert',
      order: { orderNumber: 'ORD-1', deliveryStatus: 'Delivered' },
    });
    expect(parseOrderChange('{"orderNumber":"ORD-1","deleted":true}')).toEqual({
      kind: 'deleted',
      orderNumber: 'ORD-1',
    });
    expect(parseOrderChange('not json')).toBeNull();
    expect(parseOrderChange('{"hello":1}')).toBeNull();
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
});
