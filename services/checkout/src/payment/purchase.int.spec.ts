import { describe, expect, it } from 'vitest';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { paymentSettings } from './provider-settings.ts';
import { createProduct as listProduct, createTenPercentCoupon } from '@shop/test-support/fixtures';
import { testShopForTests } from '@shop/test-support/file-shop';
import { guestOrderData, type PurchaseLine } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';

interface CreateOrderAnswer {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  key_id: string;
  message?: string;
  title?: string;
}
interface Order {
  orderNumber: string;
  totalAmount: number;
  discountAmount: number;
  couponCode: string | null;
  razorpayOrderId: string;
}

// a short hold so the expiry test can watch it lapse
const running = testShopForTests({ env: { RESERVATION_TTL_SECONDS: '2' } });

const sandbox = () => `${running.shop.url}/razorpay-sandbox`;

const createProduct = (fields: Record<string, string>) => listProduct(running.shop.api, running.admin, fields);

/** The checkout form's order data: a guest buyer's details and the browser's (unused) totals. */
const orderData = (buyer: number, items: PurchaseLine[], extra: Record<string, unknown> = {}) =>
  guestOrderData(buyer, items, {
    couponCode: null,
    totalAmount: 0,
    discountAmount: 0,
    shippingCharge: 0,
    deliveryCharge: 0,
    ...extra,
  });

/**
 * Each buyer shops from an address of their own: guests are rate-limited and capped per address, and the
 * shop takes the address from X-Forwarded-For when the connection comes from loopback (a local proxy), as
 * this test client's does.
 */
const from = (buyer: number) => ({
  'x-forwarded-for': `10.${(buyer >> 16) & 255}.${(buyer >> 8) & 255}.${buyer & 255}`,
});
let verifier = 900_000;

const createOrder = (
  buyer: number,
  items: Array<{ productId: string; quantity: number; size?: string | null }>,
  extra: Record<string, unknown> = {},
  token?: string,
) =>
  running.shop.api<CreateOrderAnswer>('POST', '/api/payment/create-order', {
    token,
    headers: from(buyer),
    body: {
      amount: 1,
      currency: 'INR',
      receipt: `rcpt_${buyer}_${Date.now()}`,
      orderData: orderData(buyer, items, extra),
    },
  });

const verify = (p: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) =>
  running.shop.api<{ success: boolean; message: string; orderNumber: string }>('POST', '/api/payment/verify', {
    body: p,
    headers: from(verifier++),
  });

async function adminOrders(): Promise<Order[]> {
  return (await running.shop.api<Order[]>('GET', '/api/orders/admin/all', { token: running.admin })).body;
}

/**
 * The admin list once it shows every order verify answered with: verify answers when the payment is recorded,
 * with the number its order is placed under; the list follows a moment later.
 */
const listedOrders = (orderNumbers: Array<string | null | undefined>) =>
  waitUntil(
    async () => {
      const list = await adminOrders();
      return orderNumbers.every((n) => n && list.some((o) => o.orderNumber === n)) ? list : null;
    },
    `the orders list to show ${orderNumbers.join(', ')}`,
  );

describe('purchase saga through the gateway', () => {
  it('300 concurrent buyers for 30 units: exactly 30 orders, stock 0 and never negative, every loser told why', async () => {
    const productId = await createProduct({ name: 'Flash Kurta', price: '999', quantity: '30', category: 'Men' });
    const attempts = await Promise.all(
      Array.from({ length: 300 }, (_, i) => createOrder(1000 + i, [{ productId, quantity: 1 }])),
    );
    const won = attempts.filter((a) => a.status === 201);
    const lost = attempts.filter((a) => a.status !== 201);
    expect(won).toHaveLength(30);
    expect(lost).toHaveLength(270);
    for (const l of lost) {
      expect(l.status).toBe(409);
      expect(l.body.message).toBe('Flash Kurta only has 0 item(s) available. You requested 1.');
    }
    expect(new Set(won.map((w) => w.body.id)).size).toBe(30);
    for (const w of won) expect(w.body).toMatchObject({ amount: 99900, currency: 'INR', key_id: 'rzp_test_sandbox' }); // free delivery from ₹500

    const paid = await Promise.all(won.map(async (w) => verify(await sandboxPay(sandbox(), w.body.id))));
    expect(paid.every((p) => p.status === 200 && p.body.success && p.body.orderNumber)).toBe(true);
    expect(new Set(paid.map((p) => p.body.orderNumber)).size).toBe(30);

    const listed = await listedOrders(paid.map((p) => p.body.orderNumber));
    const orders = listed.filter((o) => won.some((w) => w.body.id === o.razorpayOrderId));
    expect(orders).toHaveLength(30);
    await waitUntil(
      async () =>
        (await running.shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity === 0,
      'the list to show 0 left',
    );
    const { rows } = await running.shop.db.pool.query(
      `SELECT type, count(*)::int AS n FROM catalog.events WHERE stream_id = $1 GROUP BY type`,
      [`stock-${productId}`],
    );
    const counts = Object.fromEntries(rows.map((r) => [r.type, r.n]));
    expect(counts).toMatchObject({ StockLevelSet: 1, StockReserved: 30 });
    // every reservation becomes a sale once the settlement consumer has run
    await waitUntil(async () => {
      const r = await running.shop.db.pool.query(
        `SELECT count(*)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockCommitted'`,
        [`stock-${productId}`],
      );
      return r.rows[0].n === 30;
    }, '30 committed sales');
    // never below zero at any point: replay the stream
    const events = await running.shop.db.pool.query(
      `SELECT type, data FROM catalog.events WHERE stream_id = $1 ORDER BY stream_version`,
      [`stock-${productId}`],
    );
    let available = 0;
    for (const e of events.rows) {
      if (e.type === 'StockLevelSet') available = e.data.available;
      if (e.type === 'StockReserved') available -= e.data.quantity;
      if (e.type === 'StockReleased') available += e.data.quantity;
      expect(available).toBeGreaterThanOrEqual(0);
    }
    expect(available).toBe(0);
  });

  it('a coupon with usage limit 5 used by 50 concurrent checkouts gives exactly 5 discounted orders', async () => {
    const productId = await createProduct({ name: 'Coupon Tee', price: '1000', quantity: '100', category: 'Men' });
    const c = await createTenPercentCoupon(running.shop.api, running.admin, {
      code: 'FLASH5',
      usageLimit: 5,
      isActive: true,
    });
    expect(c.status).toBeLessThan(300);
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createOrder(2000 + i, [{ productId, quantity: 1 }], { couponCode: 'flash5' }),
      ),
    );
    const won = attempts.filter((a) => a.status === 201);
    expect(won).toHaveLength(5);
    for (const w of won) expect(w.body.amount).toBe(90000);
    for (const l of attempts.filter((a) => a.status !== 201)) expect(l.body.message).toMatch(/limit/i);
    const paid = await Promise.all(won.map(async (w) => verify(await sandboxPay(sandbox(), w.body.id))));
    const discounted = (await listedOrders(paid.map((p) => p.body.orderNumber))).filter(
      (o) => o.couponCode === 'FLASH5',
    );
    expect(discounted).toHaveLength(5);
    for (const o of discounted) expect(o.discountAmount).toBe(100);
    // the losers' holds were given back: 95 left
    // (the product list is a projection: it shows the releases a moment later)
    await waitUntil(
      async () =>
        (await running.shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity === 95,
      'stock back to 95',
    );
  });

  it('20 concurrent verifies of one payment make one order and all answer the same', async () => {
    const productId = await createProduct({ name: 'Verify Saree', price: '2500', quantity: '5', category: 'Women' });
    const order = await createOrder(3000, [{ productId, quantity: 1 }]);
    expect(order.status).toBe(201);
    const payment = await sandboxPay(sandbox(), order.body.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(payment)));
    expect(answers.every((a) => a.status === 200 && a.body.success)).toBe(true);
    expect(new Set(answers.map((a) => a.body.orderNumber)).size).toBe(1);
    expect(
      (await listedOrders([answers[0]!.body.orderNumber])).filter((o) => o.razorpayOrderId === order.body.id),
    ).toHaveLength(1);
    const verified = await running.shop.db.pool.query(
      `SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = 'PaymentVerified'`,
      [`payment-${order.body.id}`],
    );
    expect(verified.rows[0].n).toBe(1);
  });

  it('charges the server price whatever the client claims, and a forged signature places no order', async () => {
    const productId = await createProduct({ name: 'Tamper Jacket', price: '3299', quantity: '5', category: 'Men' });
    const order = await createOrder(4000, [{ productId, quantity: 2 }], {
      totalAmount: 1,
      discountAmount: 6000,
      shippingCharge: 0,
      deliveryCharge: 0,
    });
    expect(order.status).toBe(201);
    expect(order.body.amount).toBe(659800); // 2 x 3299.00; free delivery above ₹500
    // what the provider will charge, asked of the provider itself with the shop's keys
    const keys = paymentSettings(running.shop.infra.config, running.shop.url);
    const provider = await fetch(`${sandbox()}/v1/orders/${order.body.id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}` },
    });
    expect(provider.status).toBe(200);
    expect(((await provider.json()) as { amount: number }).amount).toBe(659800);

    const forged = await verify({
      razorpay_order_id: order.body.id,
      razorpay_payment_id: 'pay_forged00000000',
      razorpay_signature: 'f'.repeat(64),
    });
    expect(forged).toMatchObject({ status: 400, body: { message: 'Payment verification failed' } });
    const unknown = await verify({
      razorpay_order_id: 'order_nope',
      razorpay_payment_id: 'pay_x',
      razorpay_signature: 'ab',
    });
    expect(unknown.status).toBe(400);
    expect((await adminOrders()).some((o) => o.razorpayOrderId === order.body.id)).toBe(false);
    const verified = await running.shop.db.pool.query(
      `SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = 'PaymentVerified'`,
      [`payment-${order.body.id}`],
    );
    expect(verified.rows[0].n).toBe(0);
  });

  it('refuses bad checkouts with the seed messages', async () => {
    const productId = await createProduct({
      name: 'Sized Shirt',
      price: '1500',
      quantity: '0',
      category: 'Men',
      sizeQuantities: JSON.stringify({ S: 1, M: 2 }),
    });
    expect((await createOrder(5000, [])).body.message).toBe('Cart is empty');
    expect((await createOrder(5001, [{ productId, quantity: 3, size: 'M' }])).body).toMatchObject({
      title: 'Size not available',
      message: 'Sized Shirt - Size M only has 2 item(s) available. You requested 3.',
    });
    const r = await running.shop.api<{ message: string }>('POST', '/api/payment/create-order', {
      body: { orderData: { ...orderData(5002, [{ productId, quantity: 1, size: 'S' }]), customerName: '' } },
    });
    expect(r).toMatchObject({ status: 400, body: { message: 'Please fill all required fields' } });
    const badPhone = await running.shop.api<{ message: string }>('POST', '/api/payment/create-order', {
      body: { orderData: { ...orderData(5002, [{ productId, quantity: 1, size: 'S' }]), customerPhone: '12' } },
    });
    expect(badPhone).toMatchObject({ status: 400, body: { message: 'Please enter a valid 10-digit mobile number' } });
    await running.shop.api('PUT', `/api/products/${productId}/delist`, {
      token: running.admin,
      body: { isDelisted: true },
    });
    expect((await createOrder(5003, [{ productId, quantity: 1, size: 'S' }])).body.message).toBe(
      'Sized Shirt is no longer available',
    );
  });

  it('a closed browser still yields an order: the provider webhook drives the same path', async () => {
    const productId = await createProduct({ name: 'Webhook Dupatta', price: '799', quantity: '3', category: 'Women' });
    const order = await createOrder(6000, [{ productId, quantity: 1 }]);
    await sandboxPay(sandbox(), order.body.id); // the shopper paid, then closed the tab: no verify call
    const placed = await waitUntil(
      async () => (await adminOrders()).find((o) => o.razorpayOrderId === order.body.id),
      'the webhook-placed order',
    );
    expect(placed.totalAmount).toBe(799); // at or above the ₹500 free-delivery threshold
  });

  it('an unpaid reservation expires and gives back its stock and coupon use', async () => {
    const productId = await createProduct({ name: 'Expiry Lehenga', price: '1999', quantity: '1', category: 'Kids' });
    await running.shop.api('POST', '/api/coupons', {
      token: running.admin,
      body: {
        code: 'ONCE',
        discountType: 'fixed',
        discountValue: 100,
        minOrderAmount: 0,
        usageLimit: 1,
        isActive: true,
      },
    });
    const first = await createOrder(7000, [{ productId, quantity: 1 }], { couponCode: 'ONCE' });
    expect(first.status).toBe(201);
    expect((await createOrder(7001, [{ productId, quantity: 1 }])).status).toBe(409);
    // after the 2 s hold, stock and the coupon use are back
    let buyer = 7100;
    const again = await waitUntil(
      async () => {
        const r = await createOrder(buyer++, [{ productId, quantity: 1 }], { couponCode: 'ONCE' });
        return r.status === 201 ? r : undefined;
      },
      'the hold to lapse',
      20_000,
    );
    expect(again.body.amount).toBe(199900 - 10000);
    const expired = await running.shop.db.pool.query(
      `SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = 'PaymentOrderExpired'`,
      [`payment-${first.body.id}`],
    );
    expect(expired.rows[0].n).toBe(1);
    // a payment for the lapsed order is refused for refund, and no order is made
    const late = await verify(await sandboxPay(sandbox(), first.body.id));
    expect(late.status).toBe(409);
  });

  it("the seeds' own flow: create-order with the documented fields only, the cart priced at verify", async () => {
    const productId = await createProduct({ name: 'Seed Flow Shawl', price: '1200', quantity: '2', category: 'Women' });
    const open = await running.shop.api<CreateOrderAnswer>('POST', '/api/payment/create-order', {
      body: { amount: 1200, currency: 'INR', receipt: `rcpt_seed_${Date.now()}` },
    });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({ amount: 120000, currency: 'INR', key_id: 'rzp_test_sandbox' });
    const placed = await running.shop.api<{ success: boolean; orderNumber: string }>('POST', '/api/payment/verify', {
      body: {
        ...(await sandboxPay(sandbox(), open.body.id)),
        orderData: orderData(8000, [{ productId, quantity: 1 }]),
      },
    });
    expect(placed.status).toBe(200);
    expect(placed.body.success).toBe(true);
    const order = (await listedOrders([placed.body.orderNumber])).find(
      (o) => o.orderNumber === placed.body.orderNumber,
    );
    expect(order?.totalAmount).toBe(1200);

    // paid ₹1 for a ₹1,200 cart: refused for refund, no order, the stock is not taken
    const cheap = await running.shop.api<CreateOrderAnswer>('POST', '/api/payment/create-order', {
      body: { amount: 1, currency: 'INR', receipt: `rcpt_cheap_${Date.now()}` },
    });
    const refused = await running.shop.api<{ message: string }>('POST', '/api/payment/verify', {
      body: {
        ...(await sandboxPay(sandbox(), cheap.body.id)),
        orderData: orderData(8001, [{ productId, quantity: 1 }]),
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'Payment amount does not match the order total; the payment will be refunded' },
    });
    expect((await adminOrders()).some((o) => o.razorpayOrderId === cheap.body.id)).toBe(false);
    await waitUntil(
      async () =>
        (await running.shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity === 1,
      'one left',
    );
    // without a cart the opened order cannot be verified
    const bare = await running.shop.api<CreateOrderAnswer>('POST', '/api/payment/create-order', {
      body: { amount: 1200, currency: 'INR', receipt: `rcpt_bare_${Date.now()}` },
    });
    expect((await verify(await sandboxPay(sandbox(), bare.body.id))).body).toMatchObject({
      message: 'orderData is required to place this order',
    });
  });
});
