import { describe, expect, it } from 'vitest';
import { FREE_DELIVERY, linesSubtotal, orderTotals, subtotalAfterDiscount } from './order-totals';

describe('delivery totals', () => {
  const quote = { shippingCharge: 50, deliveryCharge: 40, isFreeDelivery: false };

  it('adds shipping and delivery to the subtotal', () => {
    expect(orderTotals(1000, 0, quote)).toEqual({
      subtotal: 1000,
      discount: 0,
      discountedSubtotal: 1000,
      shippingCharge: 50,
      deliveryCharge: 40,
      deliveryTotal: 90,
      total: 1090,
    });
  });

  it('takes the discount off before the charges: total = subtotal - discount + shipping + delivery', () => {
    const totals = orderTotals(1000, 150.5, quote);
    expect(totals.discountedSubtotal).toBe(849.5);
    expect(totals.total).toBe(939.5);
  });

  it('never lets the discount take the subtotal below 0', () => {
    const totals = orderTotals(100, 250, quote);
    expect(totals.discount).toBe(100);
    expect(totals.discountedSubtotal).toBe(0);
    expect(totals.total).toBe(90);
    expect(subtotalAfterDiscount(100, 250)).toBe(0);
  });

  it('is free delivery when the lookup failed (the fallback) or the server says so', () => {
    const totals = orderTotals(499, 0, FREE_DELIVERY);
    expect(totals.deliveryTotal).toBe(0);
    expect(totals.total).toBe(499);
  });

  it('counts no charges while the quote is still loading', () => {
    expect(orderTotals(499, 0, undefined).total).toBe(499);
  });

  it('ignores negative or non-finite charges and discounts', () => {
    const totals = orderTotals(200, -5, { shippingCharge: -10, deliveryCharge: Number.NaN, isFreeDelivery: false });
    expect(totals).toMatchObject({ discount: 0, deliveryTotal: 0, total: 200 });
  });

  it('sums to whole paise', () => {
    expect(
      linesSubtotal([
        { price: 0.1, quantity: 1 },
        { price: 0.2, quantity: 1 },
      ]),
    ).toBe(0.3);
    expect(linesSubtotal([{ price: 499.99, quantity: 3 }])).toBe(1499.97);
    expect(orderTotals(0.1, 0, { shippingCharge: 0.2, deliveryCharge: 0, isFreeDelivery: false }).total).toBe(0.3);
  });
});
