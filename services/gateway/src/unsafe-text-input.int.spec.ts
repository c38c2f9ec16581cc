import { beforeAll, describe, expect, it } from 'vitest';
import { testShopForTests } from '@shop/test-support/file-shop';

/**
 * Issue 15, defect 6: a NUL character or a lone surrogate in any stored or looked-up string made Postgres
 * refuse the statement (text cannot hold NUL, jsonb refuses both) and the shop answered 500. They are now
 * refused at the edge with a 400 naming the field.
 */

const BAD = [
  { name: 'a NUL character', value: 'x\u0000y', problem: /NUL character/ },
  { name: 'a lone surrogate', value: 'x\ud800y', problem: /unpaired surrogate/ },
] as const;

const running = testShopForTests();
let shopper: string;
let productId: string;
let couponId: string;

beforeAll(async () => {
  shopper = (await running.shop.signUp('Meera', 'meera@example.in', '+919800000005')).token;
  const product = await running.shop.api<{ id: string }>('POST', '/api/products', {
    token: running.admin,
    body: { name: 'Cotton Kurta', price: 999, quantity: 5 },
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
  const coupon = await running.shop.api<{ id: string }>('POST', '/api/coupons', {
    token: running.admin,
    body: { code: 'SAVE10', discountType: 'fixed', discountValue: '10' },
  });
  expect(coupon.status).toBe(201);
  couponId = coupon.body.id;
});

interface Case {
  route: string;
  method: string;
  path: () => string;
  token?: () => string;
  /** The field that carries the bad text, and a valid body with it there. */
  fields: Array<{ field: string; body: (bad: string) => unknown }>;
}

const cart = (over: Record<string, unknown> = {}, item: Record<string, unknown> = {}) => ({
  orderData: {
    address: '12 MG Road',
    pincode: '560001',
    customerName: 'Meera',
    customerPhone: '+919800000005',
    customerEmail: 'meera@example.in',
    items: [{ productId, quantity: 1, size: null, ...item }],
    ...over,
  },
});

const CASES: Case[] = [
  {
    route: 'register',
    method: 'POST',
    path: () => '/api/auth/register',
    fields: [
      { field: 'name', body: (b) => ({ name: b, email: 'n@example.in', phone: '+919800000006', password: 'secret1' }) },
      { field: 'email', body: (b) => ({ name: 'N', email: `${b}@example.in`, phone: '+919800000006', password: 'secret1' }) },
      { field: 'phone', body: (b) => ({ name: 'N', email: 'p@example.in', phone: b, password: 'secret1' }) },
    ],
  },
  {
    route: 'login',
    method: 'POST',
    path: () => '/api/auth/login',
    fields: [
      { field: 'email', body: (b) => ({ email: b, password: 'x' }) },
      { field: 'password', body: (b) => ({ email: 'meera@example.in', password: b }) },
    ],
  },
  {
    route: 'PUT /auth/me',
    method: 'PUT',
    path: () => '/api/auth/me',
    token: () => shopper,
    fields: [
      { field: 'name', body: (b) => ({ name: b, email: 'meera@example.in' }) },
      { field: 'phone', body: (b) => ({ name: 'Meera', email: 'meera@example.in', phone: b }) },
    ],
  },
  {
    route: 'create product',
    method: 'POST',
    path: () => '/api/products',
    token: () => running.admin,
    fields: [
      { field: 'name', body: (b) => ({ name: b, price: 10, quantity: 1 }) },
      { field: 'description', body: (b) => ({ name: 'Shawl', price: 10, quantity: 1, description: b }) },
    ],
  },
  {
    route: 'update product',
    method: 'PUT',
    path: () => `/api/products/${productId}`,
    token: () => running.admin,
    fields: [
      { field: 'color', body: (b) => ({ color: b }) },
      { field: 'sizeQuantities.x?y (a key)', body: (b) => ({ sizeQuantities: { [b]: 1 } }) },
    ],
  },
  {
    route: 'create coupon',
    method: 'POST',
    path: () => '/api/coupons',
    token: () => running.admin,
    fields: [
      { field: 'code', body: (b) => ({ code: b, discountType: 'fixed', discountValue: '5' }) },
      {
        field: 'description',
        body: (b) => ({ code: 'NEW5', discountType: 'fixed', discountValue: '5', description: b }),
      },
    ],
  },
  {
    route: 'update coupon',
    method: 'PUT',
    path: () => `/api/coupons/${couponId}`,
    token: () => running.admin,
    fields: [
      {
        field: 'description',
        body: (b) => ({ code: 'SAVE10', discountType: 'fixed', discountValue: '10', description: b }),
      },
    ],
  },
  {
    route: 'validate coupon',
    method: 'POST',
    path: () => '/api/coupons/validate',
    fields: [{ field: 'code', body: (b) => ({ code: b, orderTotal: 1000 }) }],
  },
  {
    route: 'add address',
    method: 'POST',
    path: () => '/api/addresses',
    token: () => shopper,
    fields: [
      { field: 'name', body: (b) => ({ name: b, phone: '+919800000006', addressLine1: 'MG Road' }) },
      { field: 'addressLine1', body: (b) => ({ name: 'Meera', phone: '+919800000006', addressLine1: b }) },
    ],
  },
  {
    route: 'create-order',
    method: 'POST',
    path: () => '/api/payment/create-order',
    fields: [
      { field: 'orderData.customerName', body: (b) => cart({ customerName: b }) },
      { field: 'orderData.items.0.size', body: (b) => cart({}, { size: b }) },
      { field: 'receipt', body: (b) => ({ amount: 100, receipt: b }) },
    ],
  },
  {
    route: 'verify',
    method: 'POST',
    path: () => '/api/payment/verify',
    fields: [
      {
        field: 'razorpay_order_id',
        body: (b) => ({ razorpay_order_id: b, razorpay_payment_id: 'pay_1', razorpay_signature: 'sig' }),
      },
      {
        field: 'orderData.customerName',
        body: (b) => ({
          razorpay_order_id: 'order_1',
          razorpay_payment_id: 'pay_1',
          razorpay_signature: 'sig',
          ...cart({ customerName: b }),
        }),
      },
    ],
  },
];

describe('NUL and lone surrogates are refused with 400 naming the field, not 500 (issue 15, defect 6)', () => {
  for (const c of CASES) {
    it(`${c.route}: a NUL character or a lone surrogate in any text field answers 400 naming it`, async () => {
      for (const bad of BAD) {
        for (const f of c.fields) {
          const r = await running.shop.api<{ message: string }>(c.method, c.path(), {
            token: c.token?.(),
            body: f.body(bad.value),
          });
          const what = `${c.method} ${c.path()} with ${bad.name} in ${f.field}`;
          expect(r.status, what).toBe(400);
          expect(r.body.message, what).toContain(f.field);
          expect(r.body.message, what).toMatch(bad.problem);
        }
      }
    });
  }

  it('multipart product form: a NUL character in a text field answers 400 naming it', async () => {
    // Multipart text is UTF-8 bytes: a lone surrogate cannot be sent (it arrives as U+FFFD), a NUL can.
    for (const bad of BAD.filter((b) => b.value.includes('\u0000'))) {
      for (const [method, path] of [
        ['POST', '/api/products'],
        ['PUT', `/api/products/${productId}`],
      ] as const) {
        const form = new FormData();
        form.append('name', 'Shawl');
        form.append('price', '10');
        form.append('quantity', '1');
        form.append('brand', bad.value);
        const r = await running.shop.api<{ message: string }>(method, path, { token: running.admin, form });
        expect(r.status, `${method} ${path} with ${bad.name}`).toBe(400);
        expect(r.body.message).toContain('brand');
        expect(r.body.message).toMatch(bad.problem);
      }
    }
  });

  it('a NUL character in a query parameter or a path segment answers 400 naming it', async () => {
    const q = await running.shop.api<{ message: string }>('GET', '/api/products?includeDelisted=%00', {
      token: running.admin,
    });
    expect(q.status).toBe(400);
    expect(q.body.message).toMatch(/query\.includeDelisted must not contain a NUL character/);
    const p = await running.shop.api<{ message: string }>('GET', '/api/products/abc%00def');
    expect(p.status).toBe(400);
    expect(p.body.message).toMatch(/path must not contain a NUL character/);
  });

  it('nothing was stored: the product, the coupon and the profile are as they were', async () => {
    const product = await running.shop.api<{ color: string; sizeQuantities: object }>(
      'GET',
      `/api/products/${productId}`,
    );
    expect(product.body.color).toBe('');
    expect(product.body.sizeQuantities).toEqual({});
    const me = await running.shop.api<{ name: string }>('GET', '/api/auth/me', { token: shopper });
    expect(me.body.name).toBe('Meera');
  });
});
