import { describe, expect, it } from 'vitest';
import { ValidationError } from '@shop/shared/errors/errors';
import { parseInput } from '@shop/shared/http/validation';
import { checkCart, OrderData, stockDecidedLines } from './api.ts';

const limits = {
  maxUnitsPerProduct: 10,
  maxUnitsPerCheckout: 20,
  maxProductsPerCheckout: 10,
  paymentCallsPerAddressPerMinute: 1200,
};

const orderData = (overrides: Record<string, unknown> = {}) => ({
  address: '12 MG Road, Bengaluru',
  pincode: '560038',
  customerName: 'Asha Rao',
  customerPhone: '+91 98000 00001',
  customerEmail: 'asha@example.in',
  items: [{ productId: 'p1', quantity: 1, size: 'M', color: null }],
  ...overrides,
});

/** The message create-order answers (400) for this cart, or undefined when the cart passes. */
const refusalOf = (overrides: Record<string, unknown>): string | undefined => {
  try {
    checkCart(limits, parseInput(OrderData, orderData(overrides)));
    return undefined;
  } catch (err) {
    if (err instanceof ValidationError) return err.message;
    throw err;
  }
};

describe("create-order's cart check: the pincode", () => {
  it('refuses a pincode Shiprocket cannot ship to, before any stock is held or money taken', () => {
    // An order paid with one of these could never ship: Shiprocket answers 422 'The billing pincode must be 6 digits.'
    for (const pincode of ['12', '5600', '5600381', '056003', '560 038', 'ABCDEF'])
      expect(refusalOf({ pincode }), pincode).toBe('Please enter a valid 6-digit pincode');
  });

  it('takes a 6-digit Indian PIN code, typed or sent as a number, with spaces around it', () => {
    for (const pincode of ['560038', ' 110001 ', 700016])
      expect(refusalOf({ pincode }), String(pincode)).toBeUndefined();
  });

  it('keeps the required-field message for a missing pincode', () => {
    expect(refusalOf({ pincode: '  ' })).toBe('Please fill all required fields');
  });

  it("leaves a cart with a bad pincode to the route, not to the stock's fast answer", () => {
    expect(stockDecidedLines(limits, { orderData: orderData({ pincode: '12' }) })).toBeNull();
    expect(stockDecidedLines(limits, { orderData: orderData() })).toEqual([
      { productId: 'p1', size: 'M', color: null, quantity: 1 },
    ]);
  });
});
