import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderConfirmationTokens } from '@shop/shared/contracts/order-confirmation';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import type { OrderView } from '../read-models/orders/orders-queries.ts';
import { startOrderTestHost, type OrderTestHost } from '../testing/order-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from '../testing/payments.ts';
import { openEventStream, type EventStreamReader } from '../testing/sse-client.ts';
import { BEING_PLACED } from './order-confirmation-api.ts';

let db: TestDatabase;
let host: OrderTestHost;
let admin: string;
let tokens: ReturnType<typeof orderConfirmationTokens>;

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startOrderTestHost({ databaseUrl: db.url });
  admin = await host.login();
  tokens = orderConfirmationTokens(host.ctx.config.JWT_SECRET);
});
afterAll(async () => {
  await host?.close();
  await db?.drop();
});

const read = (token: unknown, bearer?: string) =>
  host.api<OrderView & { message?: string }>('POST', '/api/orders/confirmation', { body: { token }, token: bearer });

const razorpayOrderId = () => `order_${randomUUID().replaceAll('-', '').slice(0, 14)}`;

/** A guest's paid order (the checkout log's PaymentVerified, placed and listed) and its link's token. */
async function guestOrder(customer: { name: string; email: string; phone: string }, address: string) {
  const data = paymentVerifiedData({
    razorpayOrderId: razorpayOrderId(),
    customer: { userId: null, ...customer },
    address,
    pincode: '560038',
  });
  const orderNumber = await placePaidOrder(host.ctx, data);
  return { orderNumber, data, token: tokens.sign(data.razorpayOrderId) };
}

const asha = { name: 'Asha Rao', email: 'asha.confirm@example.in', phone: '+919800000001' };
const vikram = { name: 'Vikram Shah', email: 'vikram.confirm@example.in', phone: '+919800000002' };

describe('POST /api/orders/confirmation (the order by its confirmation link)', () => {
  it("answers the link's order to anyone who holds the link, signed in or not, and nothing of any other order", async () => {
    const mine = await guestOrder(asha, '12 MG Road, Indiranagar, Bengaluru');
    const other = await guestOrder(vikram, '7 Park Street, Kolkata');

    const r = await read(mine.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      orderNumber: mine.orderNumber,
      deliveryStatus: 'Processing',
      paymentStatus: 'Paid',
      razorpayPaymentId: mine.data.razorpayPaymentId,
      customerName: asha.name,
      address: '12 MG Road, Indiranagar, Bengaluru',
      pincode: '560038',
      subtotal: 2999,
      discountAmount: 299.9,
      couponCode: 'DIWALI10',
      deliveryCharge: 50,
      shippingCharge: 0,
      totalAmount: 2749.1,
    });
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0]).toMatchObject({
      Product: { name: 'Linen Kurta', price: 1499.5 },
      size: 'M',
      orderedQuantity: 2,
    });
    // What is the shop's business (the account behind it, whether an admin has seen it) stays out.
    expect(r.body).not.toHaveProperty('seen');
    expect(r.body).not.toHaveProperty('User');
    const text = JSON.stringify(r.body);
    for (const foreign of [
      other.orderNumber,
      vikram.name,
      vikram.email,
      vikram.phone,
      'Kolkata',
      other.data.razorpayPaymentId,
    ])
      expect(text).not.toContain(foreign);

    // A signed-in shopper (another account) holding the link reads the same order: the link is the credential.
    const meera = await host.register('Meera Iyer', 'meera.confirm@example.in');
    expect((await read(mine.token, meera.token)).body.orderNumber).toBe(mine.orderNumber);
    expect((await read(other.token)).body.orderNumber).toBe(other.orderNumber);
  });

  it("answers 404 'Order not found' alike for a tampered, foreign or made-up token as for no order at all", async () => {
    const mine = await guestOrder(asha, '12 MG Road, Indiranagar, Bengaluru');
    const other = await guestOrder(vikram, '7 Park Street, Kolkata');
    const mac = (token: string) => token.slice(token.lastIndexOf('.') + 1);
    const last = mine.token.at(-1)!;
    const refused = [
      `${mine.token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`, // one character of the MAC changed
      `${mine.data.razorpayOrderId}.${mac(other.token)}`, // another order's MAC on this order's id
      `${other.data.razorpayOrderId}.${mac(mine.token)}`,
      orderConfirmationTokens('another-shop-secret-long-enough-to-use').sign(mine.data.razorpayOrderId),
      mine.data.razorpayOrderId, // the id alone
      mine.orderNumber,
      `${mine.orderNumber}.${mac(mine.token)}`,
    ];
    for (const token of refused) {
      const r = await read(token);
      expect({ token, status: r.status, body: r.body }).toEqual({
        token,
        status: 404,
        body: { message: 'Order not found' },
      });
    }
    expect((await read(undefined)).status).toBe(400);
    expect((await read('x'.repeat(301))).status).toBe(400);
  });

  it('answers 202 while a paid order is being placed, then the order; 404 once an admin deleted it', async () => {
    // The token exists from verify on, before the order has a number (verify's 202 at a sale's peak).
    const data = paymentVerifiedData({ razorpayOrderId: razorpayOrderId(), customer: { userId: null, ...asha } });
    const token = tokens.sign(data.razorpayOrderId);
    expect(await read(token)).toMatchObject({ status: 202, body: { orderNumber: null, message: BEING_PLACED } });

    const orderNumber = await placePaidOrder(host.ctx, data);
    expect(await read(token)).toMatchObject({ status: 200, body: { orderNumber, deliveryStatus: 'Processing' } });

    // The status an admin sets shows at the next read (the page's polling).
    const status = (deliveryStatus: string) =>
      host.api('PATCH', `/api/orders/admin/${orderNumber}/status`, { token: admin, body: { deliveryStatus } });
    expect((await status('Delivered')).status).toBe(200);
    expect((await read(token)).body.deliveryStatus).toBe('Delivered');

    expect((await host.api('DELETE', `/api/orders/admin/${orderNumber}`, { token: admin })).status).toBe(200);
    expect(await read(token)).toMatchObject({ status: 404, body: { message: 'Order not found' } });
  });
});

describe('POST /api/orders/confirmation/stream (the confirmation page follows by push)', () => {
  const streams: EventStreamReader[] = [];
  afterAll(() => {
    for (const s of streams) s.close();
  });
  const follow = async (token: unknown) => {
    const s = await openEventStream(`${host.url}/api/orders/confirmation/stream`, { body: { token } });
    streams.push(s);
    return s;
  };

  it('delivers the order placed after the stream opened, and no other order, then ends', async () => {
    const data = paymentVerifiedData({ razorpayOrderId: razorpayOrderId(), customer: { userId: null, ...asha } });
    const token = tokens.sign(data.razorpayOrderId);
    expect((await read(token)).status).toBe(202);

    const s = await follow(token);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await s.waitFor((e) => e.event === 'ready', 'ready');

    // Another buyer's order placed meanwhile is not this stream's business.
    const other = await guestOrder(vikram, '7 Park Street, Kolkata');
    const orderNumber = await placePaidOrder(host.ctx, data);
    const pushed = await s.waitFor((e) => e.event === 'order', 'the placed order');
    expect(pushed.json()).toMatchObject({
      orderNumber,
      deliveryStatus: 'Processing',
      paymentStatus: 'Paid',
      razorpayPaymentId: data.razorpayPaymentId,
      totalAmount: 2749.1,
    });
    // The same order as the confirmation read answers it, less the shop's business.
    expect(pushed.json()).toEqual((await read(token)).body);
    expect(pushed.json()).not.toHaveProperty('seen');
    await s.waitUntil(() => s.ended, 'the end of the stream');
    expect(s.events.map((e) => e.event)).toEqual(['ready', 'order']);
    expect(JSON.stringify(s.events)).not.toContain(other.orderNumber);
  });

  it('delivers at once an order placed before the stream opened', async () => {
    const mine = await guestOrder(asha, '12 MG Road, Indiranagar, Bengaluru');
    const s = await follow(mine.token);
    const pushed = await s.waitFor((e) => e.event === 'order', 'the order');
    expect(pushed.json()).toMatchObject({ orderNumber: mine.orderNumber });
    await s.waitUntil(() => s.ended, 'the end of the stream');
  });

  it("refuses a tampered, foreign or made-up token with 404 'Order not found' as the read does, bad input 400", async () => {
    const mine = await guestOrder(asha, '12 MG Road, Indiranagar, Bengaluru');
    const last = mine.token.at(-1)!;
    for (const token of [
      `${mine.token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`,
      orderConfirmationTokens('another-shop-secret-long-enough-to-use').sign(mine.data.razorpayOrderId),
      mine.data.razorpayOrderId,
    ]) {
      const s = await follow(token);
      expect({ token, status: s.status, body: JSON.parse(s.refusal) as unknown }).toEqual({
        token,
        status: 404,
        body: { message: 'Order not found' },
      });
    }
    expect((await follow(undefined)).status).toBe(400);
  });

  it('holds at most 5 streams open for one order (429 beyond)', async () => {
    const data = paymentVerifiedData({ razorpayOrderId: razorpayOrderId(), customer: { userId: null, ...asha } });
    const token = tokens.sign(data.razorpayOrderId);
    const open = [];
    for (let i = 0; i < 5; i += 1) open.push(await follow(token));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await follow(token)).status).toBe(429);
    // Another order's link is not held back by this one's.
    const other = await follow(tokens.sign(razorpayOrderId()));
    expect(other.status).toBe(200);
  });
});
