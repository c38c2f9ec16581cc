import { waitUntil } from '@shop/test-support/wait-until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { ROUTE_TABLE } from '../../services/gateway/src/route-table.ts';
import { openEventStream, type EventStreamReader } from '../../services/order/src/testing/sse-client.ts';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { ADDRESS, addAddress, buyAs, createProduct, orderDataOf, registerShopper, type Shopper } from './shoppers.ts';

/**
 * Insecure direct object references: shopper B knows the ids of shopper A's things (address ids, order
 * numbers, Razorpay order ids, even A's signed payment) and tries each route with them. Nothing of A's may
 * be read, changed or attached to B. Every `owned` route of the route table is tried here.
 */
interface Address {
  id: string;
  name: string;
  addressLine1: string;
  city: string;
}
interface Order {
  orderNumber: string;
  razorpayOrderId: string;
  customerEmail: string;
  deliveryStatus: string;
  seen: boolean;
  User: { id: string } | null;
}

let shop: TestShop;
let admin: string;
let a: Shopper;
let b: Shopper;
let productId: string;
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  a = await registerShopper(shop, 'Asha Rao', 'asha.idor@example.in');
  b = await registerShopper(shop, 'Ravi Kumar', 'ravi.idor@example.in');
  productId = await createProduct(shop, admin, 'IDOR Kurta', 100);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await shop?.stop();
});

/** Routes of the table tried below with another shopper's ids. */
const TRIED = new Set<string>();
const tried = (method: string, path: string) => TRIED.add(`${method} ${path}`);

const book = async (who: Shopper) =>
  (await shop.api<Address[]>('GET', '/api/addresses', { token: who.token, headers: who.from })).body;
const ordersOf = async (who: Shopper) =>
  (await shop.api<Order[]>('GET', '/api/orders', { token: who.token, headers: who.from })).body;
const allOrders = async () => (await shop.api<Order[]>('GET', '/api/orders/admin/all', { token: admin })).body;

describe("IDOR: shopper B and shopper A's things", () => {
  it("B can neither read, change nor delete A's saved address; B's own address stays in B's book", async () => {
    const mine = await addAddress(shop, a, { addressLine1: '7 Residency Road' });
    const theirs = await addAddress(shop, b, { name: 'Ravi Kumar', addressLine1: '9 Park Street', city: 'Kolkata' });
    tried('get', '/api/addresses');
    tried('post', '/api/addresses');
    expect((await book(b)).map((x) => x.id)).toEqual([theirs]);
    expect((await book(a)).map((x) => x.id)).toEqual([mine]);

    tried('put', '/api/addresses/:id');
    const put = await shop.api<{ message: string }>('PUT', `/api/addresses/${mine}`, {
      token: b.token,
      headers: b.from,
      body: { ...ADDRESS, name: 'Hijacked', addressLine1: '1 Attacker Lane' },
    });
    expect(put.status).toBe(404);
    expect(put.body.message).toBe('Address not found');
    tried('delete', '/api/addresses/:id');
    const del = await shop.api<{ message: string }>('DELETE', `/api/addresses/${mine}`, {
      token: b.token,
      headers: b.from,
    });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Address not found');

    const after = await book(a);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: mine,
      name: ADDRESS.name,
      addressLine1: '7 Residency Road',
      city: 'Bengaluru',
    });
    expect((await book(b)).map((x) => x.id)).toEqual([theirs]);
  });

  it("B's order list and order stream carry only B's orders; the admin order routes refuse B on A's order", async () => {
    tried('get', '/api/orders/stream');
    const open = async (who: Shopper) => {
      const s = await openEventStream(`${shop.url}/api/orders/stream`, { token: who.token });
      streams.push(s);
      expect(s.status).toBe(200);
      await s.waitFor((e) => e.event === 'ready', 'the ready event');
      return s;
    };
    const streamA = await open(a);
    const streamB = await open(b);
    const isOrder = (n: string) => (e: { event: string; json<T>(): T }) =>
      e.event === 'order' && e.json<{ orderNumber: string }>().orderNumber === n;

    const ofA = await buyAs(shop, a, productId);
    await streamA.waitFor(isOrder(ofA.orderNumber), "A's order on A's stream");
    // B buys after A's order was pushed: once B's own order reaches B's stream, A's would have come first
    const ofB = await buyAs(shop, b, productId);
    await streamB.waitFor(isOrder(ofB.orderNumber), "B's order on B's stream");
    const pushedTo = (s: EventStreamReader) =>
      s.events.filter((e) => e.event === 'order').map((e) => e.json<{ orderNumber: string }>().orderNumber);
    expect(new Set(pushedTo(streamB))).toEqual(new Set([ofB.orderNumber]));
    expect(pushedTo(streamA)).not.toContain(ofB.orderNumber);
    expect(streamB.events.some((e) => e.event === 'stats')).toBe(false);

    tried('get', '/api/orders');
    expect((await ordersOf(b)).map((o) => o.orderNumber)).toEqual([ofB.orderNumber]);
    expect((await ordersOf(a)).map((o) => o.orderNumber)).toEqual([ofA.orderNumber]);

    // Every admin order route with A's order number, as B: 403, and A's order is as it was.
    const adminOnly = ROUTE_TABLE.filter((r) => r.path.startsWith('/api/orders/admin/'));
    expect(adminOnly.length).toBeGreaterThanOrEqual(6);
    for (const route of adminOnly) {
      expect(route.auth).toBe('admin');
      const path = route.path.replace(':orderNumber', ofA.orderNumber);
      const body = route.method === 'patch' ? { deliveryStatus: 'Delivered' } : undefined;
      const r = await shop.api(route.method.toUpperCase(), path, { token: b.token, headers: b.from, body });
      expect(r.status, `${route.method} ${path} as B`).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain(a.email);
    }
    const stillA = (await allOrders()).find((o) => o.orderNumber === ofA.orderNumber);
    expect(stillA).toMatchObject({
      deliveryStatus: 'Processing',
      seen: false,
      customerEmail: a.email,
      User: { id: a.id },
    });

    // B cannot cancel A's order: not found, as if it did not exist, and A's order is as it was.
    tried('post', '/api/orders/:orderNumber/cancel');
    const cancel = await shop.api('POST', `/api/orders/${ofA.orderNumber}/cancel`, { token: b.token, headers: b.from });
    expect(cancel).toMatchObject({ status: 404, body: { message: 'Order not found' } });
    expect((await allOrders()).find((o) => o.orderNumber === ofA.orderNumber)).toMatchObject({
      deliveryStatus: 'Processing',
    });
  });

  it("B cannot verify a payment on A's Razorpay order, nor get it attached, nor read A's details from it", async () => {
    const ofA = await buyAs(shop, a, productId);
    // B's own, genuine payment on another order cannot be passed off against A's order id
    const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
      token: b.token,
      headers: b.from,
      body: { amount: 1, currency: 'INR', receipt: 'rcpt_b', orderData: orderDataOf(b, productId) },
    });
    expect(created.status).toBe(201);
    const paidByB = await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
    const verifyAsB = (body: Record<string, unknown>) =>
      shop.api<Record<string, unknown>>('POST', '/api/payment/verify', { token: b.token, headers: b.from, body });
    for (const forged of [
      { ...paidByB, razorpay_order_id: ofA.razorpayOrderId },
      { ...ofA.payment, razorpay_payment_id: paidByB.razorpay_payment_id },
      { ...ofA.payment, razorpay_signature: paidByB.razorpay_signature },
    ]) {
      const r = await verifyAsB(forged);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: 'Payment verification failed' });
      expect(JSON.stringify(r.body)).not.toContain(a.email);
    }
    // Even A's whole signed payment (as if B got hold of it) changes nothing and tells B nothing of A's
    const replay = await verifyAsB({ ...ofA.payment, orderData: orderDataOf(b, productId) });
    expect(JSON.stringify(replay.body)).not.toContain(a.email);
    expect(JSON.stringify(replay.body)).not.toContain('Asha');
    expect((await ordersOf(b)).map((o) => o.razorpayOrderId)).not.toContain(ofA.razorpayOrderId);
    const orders = (await allOrders()).filter((o) => o.razorpayOrderId === ofA.razorpayOrderId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ orderNumber: ofA.orderNumber, customerEmail: a.email, User: { id: a.id } });
  });

  it("an order A opened without a cart is A's: B (or a guest) cannot attach a cart to A's paid order", async () => {
    // The seeds' own flow: create-order with only an amount; the cart comes with verify and is priced there.
    const opened = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
      token: a.token,
      headers: a.from,
      body: { amount: 799, currency: 'INR', receipt: 'rcpt_a_open' },
    });
    expect(opened.status).toBe(201);
    const payment = await sandboxPay(`${shop.url}/razorpay-sandbox`, opened.body.id);

    const asB = await shop.api<{ message: string }>('POST', '/api/payment/verify', {
      token: b.token,
      headers: b.from,
      body: { ...payment, orderData: orderDataOf(b, productId) },
    });
    expect(asB.status).toBe(403);
    expect(asB.body.message).toBe('Payment verification failed');
    const asGuest = await shop.api<{ message: string }>('POST', '/api/payment/verify', {
      headers: { 'x-forwarded-for': '10.99.0.1' },
      body: { ...payment, orderData: orderDataOf({ email: 'guest.idor@example.in' }, productId) },
    });
    expect(asGuest.status).toBe(403);
    expect((await allOrders()).some((o) => o.razorpayOrderId === opened.body.id)).toBe(false);

    const asA = await shop.api<{ orderNumber: string }>('POST', '/api/payment/verify', {
      token: a.token,
      headers: a.from,
      body: { ...payment, orderData: orderDataOf(a, productId) },
    });
    expect(asA.status).toBe(200);
    // verify answers once the payment is recorded: A's list shows the order a moment later
    const listedForA = await waitUntil(async () => {
      const list = await ordersOf(a);
      return list.some((o) => o.razorpayOrderId === opened.body.id) ? list : null;
    }, "A's order in A's list");
    expect(listedForA.map((o) => o.orderNumber)).toContain(asA.body.orderNumber);
    expect((await ordersOf(b)).map((o) => o.razorpayOrderId)).not.toContain(opened.body.id);
  });

  it("B cannot take A's e-mail address (A's login) through the profile, in any spelling", async () => {
    const attempts = [a.email, a.email.toUpperCase(), ` ${a.email} `];
    for (const email of attempts) {
      const r = await shop.api<{ message: string }>('PUT', '/api/auth/me', {
        token: b.token,
        headers: b.from,
        body: { name: 'Ravi Kumar', email },
      });
      expect(r.status, `B's e-mail changed to '${email}'`).toBe(409);
    }
    const me = await shop.api<{ email: string }>('GET', '/api/auth/me', { token: b.token, headers: b.from });
    expect(me.body.email).toBe(b.email);
    expect(await shop.login(a.email, 'secret123')).toBeTruthy();
  });

  it('every owned route of the route table was tried above', () => {
    const owned = ROUTE_TABLE.filter((r) => r.owned).map((r) => `${r.method} ${r.path}`);
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.filter((r) => !TRIED.has(r))).toEqual([]);
  });
});
