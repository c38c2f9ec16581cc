import { describe, expect, it } from 'vitest';
import { orderTotals } from '@/lib/order-totals';
import { buildProduct } from '@/testing/data';
import {
  addressText,
  buildOrderData,
  checkoutProblem,
  EMPTY_SHIPPING,
  lineStockProblem,
  normaliseCouponCode,
  parseOpenCheckout,
  withProfile,
  withSavedAddress,
  type CheckoutLine,
  type OpenCheckout,
  type ShippingDetails,
} from './checkout-rules';

const line = (overrides: Partial<CheckoutLine> = {}): CheckoutLine => ({
  id: 7,
  name: 'Linen Kurta',
  price: 1299,
  quantity: 1,
  size: null,
  color: null,
  image: null,
  ...overrides,
});

const shipping: ShippingDetails = {
  name: 'Asha Rao',
  email: 'asha@example.in',
  phone: '+91 98000 00001',
  address: '12 MG Road',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560001',
};

describe('checkout rules', () => {
  it("refuses an empty cart with 'Cart is empty'", () => {
    expect(checkoutProblem([], shipping)).toEqual({ title: 'Cart is empty' });
  });

  it("refuses a phone number that is not an Indian mobile number before anything is sent (the server's rule)", () => {
    for (const phone of ['12', '98000 0000', '+1 415 555 0100', '5800000000'])
      expect(checkoutProblem([line()], { ...shipping, phone })).toEqual({
        title: 'Please enter a valid 10-digit mobile number',
      });
    for (const phone of ['9800000001', '+91 98000 00001', '098000-00001'])
      expect(checkoutProblem([line()], { ...shipping, phone })).toBeNull();
  });

  it("refuses an e-mail address the server would refuse, before anything is sent ('Please enter a valid email')", () => {
    for (const email of ['bad@', 'asha', 'asha@example', 'a b@example.in'])
      expect(checkoutProblem([line()], { ...shipping, email })).toEqual({ title: 'Please enter a valid email' });
    expect(checkoutProblem([line()], { ...shipping, email: ' asha@example.in ' })).toBeNull();
  });

  it("refuses a pincode the courier cannot ship to, before anything is sent ('Please enter a valid 6-digit pincode')", () => {
    for (const pincode of ['12', '5600', '5600381', '056003', '560 038', 'ABCDEF'])
      expect(checkoutProblem([line()], { ...shipping, pincode })).toEqual({
        title: 'Please enter a valid 6-digit pincode',
      });
    for (const pincode of ['560038', ' 110001 ', '700016'])
      expect(checkoutProblem([line()], { ...shipping, pincode })).toBeNull();
  });

  it("needs name, email, phone, address and pincode ('Please fill all required fields'); city and state are optional", () => {
    for (const field of ['name', 'email', 'phone', 'address', 'pincode'] as const) {
      expect(checkoutProblem([line()], { ...shipping, [field]: '  ' })).toEqual({
        title: 'Please fill all required fields',
      });
    }
    expect(checkoutProblem([line()], { ...shipping, city: '', state: '' })).toBeNull();
  });

  it('trims and upper-cases a coupon code', () => {
    expect(normaliseCouponCode('  diwali10 ')).toBe('DIWALI10');
    expect(normaliseCouponCode('   ')).toBe('');
  });
});

describe('the pre-payment re-check of a line', () => {
  it("blocks a delisted product with 'Product not available'", () => {
    expect(lineStockProblem(line(), buildProduct({ isDelisted: true }))).toEqual({
      title: 'Product not available',
      message: 'Linen Kurta is no longer available',
    });
  });

  it("checks the chosen size's stock when stock is kept per size", () => {
    const product = buildProduct({ quantity: 7, sizeQuantities: { M: 2, L: 5 } });
    expect(lineStockProblem(line({ size: 'M', quantity: 3 }), product)).toEqual({
      title: 'Size not available',
      message: 'Linen Kurta - Size M only has 2 item(s) available. You requested 3.',
    });
    expect(lineStockProblem(line({ size: 'M', quantity: 2 }), product)).toBeNull();
    expect(lineStockProblem(line({ size: 'XL', quantity: 1 }), product)?.message).toBe(
      'Linen Kurta - Size XL only has 0 item(s) available. You requested 1.',
    );
  });

  it('otherwise checks the total quantity', () => {
    expect(lineStockProblem(line({ quantity: 4 }), buildProduct({ quantity: 3 }))).toEqual({
      title: 'Not enough stock',
      message: 'Linen Kurta only has 3 item(s) available. You requested 4.',
    });
    // A size chosen from the generic list on a product without size stock: the total decides.
    expect(lineStockProblem(line({ size: 'S', quantity: 3 }), buildProduct({ quantity: 3 }))).toBeNull();
    // No size on a product sold by size: all its sizes together.
    expect(
      lineStockProblem(line({ quantity: 6 }), buildProduct({ quantity: 0, sizeQuantities: { M: 2, L: 4 } })),
    ).toBeNull();
  });

  describe("counts the buyer's own open checkout as theirs (a reload or a second tab never blocks them)", () => {
    const now = new Date('2026-11-27T10:00:00Z');
    const own = (overrides: Partial<OpenCheckout> = {}): OpenCheckout => ({
      razorpayOrderId: 'order_1',
      lines: [{ productId: '7', size: 'M', quantity: 1 }],
      createdAt: '2026-11-27T09:59:30Z',
      expiresAt: null,
      ...overrides,
    });
    const lastM = buildProduct({ quantity: 0, sizeQuantities: { M: 0, L: 5 } });

    it('the last unit of size M, held by this browser, can be paid for again', () => {
      expect(lineStockProblem(line({ size: 'M' }), lastM, own(), now)).toBeNull();
      // never more than it holds
      expect(lineStockProblem(line({ size: 'M', quantity: 2 }), lastM, own(), now)?.message).toBe(
        'Linen Kurta - Size M only has 1 item(s) available. You requested 2.',
      );
    });

    it("not another size's, another product's, or a hold the server has let go", () => {
      expect(
        lineStockProblem(line({ size: 'M' }), lastM, own({ lines: [{ productId: '7', size: 'S', quantity: 1 }] }), now),
      ).not.toBeNull();
      expect(
        lineStockProblem(line({ size: 'M' }), lastM, own({ lines: [{ productId: '8', size: 'M', quantity: 1 }] }), now),
      ).not.toBeNull();
      // before the dialog opened: held two minutes
      expect(
        lineStockProblem(line({ size: 'M' }), lastM, own({ createdAt: '2026-11-27T09:57:59Z' }), now),
      ).not.toBeNull();
      // after: until the server said
      const opened = own({ createdAt: '2026-11-27T09:50:00Z', expiresAt: '2026-11-27T10:05:00Z' });
      expect(lineStockProblem(line({ size: 'M' }), lastM, opened, now)).toBeNull();
      expect(
        lineStockProblem(line({ size: 'M' }), lastM, { ...opened, expiresAt: '2026-11-27T09:59:59Z' }, now),
      ).not.toBeNull();
    });

    it('a product sold by one count: any size the checkout held counts', () => {
      const product = buildProduct({ quantity: 1 });
      const held = own({ lines: [{ productId: '7', size: null, quantity: 2 }] });
      expect(lineStockProblem(line({ quantity: 3 }), product, held, now)).toBeNull();
    });

    it('reads only what this app stored', () => {
      expect(parseOpenCheckout(own())).toEqual(own());
      for (const junk of [null, 'x', 1, {}, { razorpayOrderId: 'o', lines: 'x', createdAt: 'y' }])
        expect(parseOpenCheckout(junk)).toBeNull();
    });
  });
});

describe('the order create payload', () => {
  it('carries the subtotal, lines, customer, pincode, coupon and charges', () => {
    const lines = [line({ quantity: 2, size: 'M', color: 'Indigo' }), line({ id: 'p-9', price: 500, color: '' })];
    const totals = orderTotals(3098, 300, { shippingCharge: 50, deliveryCharge: 0, isFreeDelivery: false });
    expect(buildOrderData(lines, { ...shipping, name: ' Asha Rao ' }, totals, 'SAVE300')).toEqual({
      address: '12 MG Road, Bengaluru, Karnataka',
      totalAmount: 3098,
      items: [
        { productId: 7, quantity: 2, size: 'M', color: 'Indigo' },
        { productId: 'p-9', quantity: 1, size: null, color: null },
      ],
      customerName: 'Asha Rao',
      customerPhone: '+91 98000 00001',
      customerEmail: 'asha@example.in',
      pincode: '560001',
      couponCode: 'SAVE300',
      discountAmount: 300,
      shippingCharge: 50,
      deliveryCharge: 0,
    });
  });

  it('joins only the address parts given', () => {
    expect(addressText({ ...shipping, city: ' ', state: '' })).toBe('12 MG Road');
  });
});

describe('prefill', () => {
  it('fills empty contact fields from the profile and keeps what was typed', () => {
    const typed = { ...EMPTY_SHIPPING, name: 'Typed Name' };
    expect(withProfile(typed, { name: 'Asha Rao', email: 'asha@example.in', phone: null })).toMatchObject({
      name: 'Typed Name',
      email: 'asha@example.in',
      phone: '',
    });
  });

  it('fills the form from a saved address', () => {
    const saved = {
      id: '3',
      label: 'Work',
      name: 'Asha R',
      phone: '+91 98000 00002',
      email: '',
      addressLine1: '4th Floor, Prestige Tower',
      addressLine2: 'Residency Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      zipCode: '560025',
      isDefault: false,
    };
    expect(withSavedAddress(shipping, saved)).toEqual({
      name: 'Asha R',
      email: 'asha@example.in',
      phone: '+91 98000 00002',
      address: '4th Floor, Prestige Tower, Residency Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560025',
    });
  });
});
