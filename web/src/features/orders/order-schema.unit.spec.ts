import { describe, expect, it } from 'vitest';
import { orderSchema, type Order } from '@/types/order';
import { orderTotals } from './order-schema';

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

describe('order totals', () => {
  it('totals subtotal, discount, delivery (shipping + delivery) and the charged total', () => {
    expect(orderTotals(order('ORD-1'))).toEqual({ subtotal: 1099, discount: 100, delivery: 50, total: 1049 });
  });
});
