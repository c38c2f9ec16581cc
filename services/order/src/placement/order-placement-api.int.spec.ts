import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { UnavailableError } from '@shop/shared/errors/errors';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { OrderPlacementHttpClient } from '../client.ts';
import { startOrderTestHost, type OrderTestHost } from '../testing/order-test-host.ts';
import { paymentVerifiedData, recordVerifiedPayment } from '../testing/payments.ts';

// The order service's placement port over HTTP (issue 11, item 2): checkout, running as its own process,
// asks the order process which order a verified payment became instead of reading the orders schema.
let db: TestDatabase;
let orderProcess: OrderTestHost;
let allInOne: OrderTestHost;
let serviceToken: string;
let shopper: string;
let admin: string;

const ROUTE = '/internal/orders/order-of-payment';
const refOf = (razorpayOrderId: string, paymentStreamVersion: number) => ({
  razorpayOrderId,
  paymentStreamId: paymentStreamId(razorpayOrderId),
  paymentStreamVersion,
});

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  orderProcess = await startOrderTestHost({ databaseUrl: db.url, internalRoutes: true });
  // a second host on the same database without internal routes, as the all-in-one gateway hosts the order service
  allInOne = await startOrderTestHost({ databaseUrl: db.url, consumers: false });
  serviceToken = orderProcess.ctx.tokens.sign({
    id: 'service:checkout',
    name: 'checkout',
    email: 'checkout@services.internal',
    isAdmin: false,
  });
  shopper = (await orderProcess.register('Asha Rao', 'asha@example.in')).token;
  admin = await orderProcess.login();
});
afterAll(async () => {
  await allInOne?.close();
  await orderProcess?.close();
  await db?.drop();
});

describe('POST /internal/orders/order-of-payment', () => {
  const body = refOf('order_unknown0001', 2);

  it('takes service tokens only: 401 without a token, 403 for a shopper or an admin', async () => {
    expect((await orderProcess.api('POST', ROUTE, { body })).status).toBe(401);
    expect((await orderProcess.api('POST', ROUTE, { token: shopper, body })).status).toBe(403);
    expect((await orderProcess.api('POST', ROUTE, { token: admin, body })).status).toBe(403);
  });

  it('is not served where internal routes are off (the all-in-one process): 404 even to a service token', async () => {
    const r = await allInOne.api<{ message: string }>('POST', ROUTE, { token: serviceToken, body });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^No route for POST \/internal\/orders\/order-of-payment/);
  });

  it('validates the body (400): stream of another order, a wait beyond 10 s, a missing version', async () => {
    const call = (b: unknown) => orderProcess.api<{ message: string }>('POST', ROUTE, { token: serviceToken, body: b });
    const mismatched = await call({ ...body, paymentStreamId: 'payment-order_someoneelse' });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.message).toMatch(/paymentStreamId/);
    expect((await call({ ...body, timeoutMs: 60_000 })).status).toBe(400);
    expect((await call({ razorpayOrderId: body.razorpayOrderId, paymentStreamId: body.paymentStreamId })).status).toBe(
      400,
    );
  });

  it('answers the order number once the placed order shows, over the route and through the HTTP client', async () => {
    const data = paymentVerifiedData();
    const payment = await recordVerifiedPayment(orderProcess.ctx.eventStore('checkout'), data);
    const ref = refOf(data.razorpayOrderId, payment.streamVersion);
    const r = await orderProcess.api<{ orderNumber: string | null }>('POST', ROUTE, {
      token: serviceToken,
      body: { ...ref, timeoutMs: 10_000 },
    });
    expect(r.status).toBe(200);
    expect(r.body.orderNumber).toMatch(/^ORD-\d+$/);
    const client = new OrderPlacementHttpClient(orderProcess.url, serviceToken);
    expect(await client.orderOfPayment(ref, 10_000)).toBe(r.body.orderNumber);
    // read-your-writes: the answer means the orders list already shows the order
    const list = await orderProcess.api<{ orderNumber: string }[]>('GET', '/api/orders/admin/all', { token: admin });
    expect(list.body.map((o) => o.orderNumber)).toContain(r.body.orderNumber);
  });

  it('answers null when no order shows within the wait (bounded), over the route and through the client', async () => {
    const ref = refOf(`order_${randomUUID().slice(0, 14)}`, 2);
    const started = Date.now();
    const r = await orderProcess.api<{ orderNumber: string | null }>('POST', ROUTE, {
      token: serviceToken,
      body: { ...ref, timeoutMs: 300 },
    });
    expect(r).toEqual({ status: 200, body: { orderNumber: null } });
    const client = new OrderPlacementHttpClient(orderProcess.url, serviceToken);
    expect(await client.orderOfPayment(ref, 300)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('POST /internal/orders/order-numbers', () => {
  const ROUTE_NUMBERS = '/internal/orders/order-numbers';

  it('hands out fresh order numbers to a service token only, over the route and through the HTTP client', async () => {
    expect((await orderProcess.api('POST', ROUTE_NUMBERS, { body: { count: 2 } })).status).toBe(401);
    expect((await orderProcess.api('POST', ROUTE_NUMBERS, { token: shopper, body: { count: 2 } })).status).toBe(403);
    expect((await orderProcess.api('POST', ROUTE_NUMBERS, { token: serviceToken, body: { count: 0 } })).status).toBe(
      400,
    );
    expect((await orderProcess.api('POST', ROUTE_NUMBERS, { token: serviceToken, body: { count: 101 } })).status).toBe(
      400,
    );
    const r = await orderProcess.api<{ orderNumbers: string[] }>('POST', ROUTE_NUMBERS, {
      token: serviceToken,
      body: { count: 3 },
    });
    expect(r.status).toBe(200);
    expect(r.body.orderNumbers).toHaveLength(3);
    for (const n of r.body.orderNumbers) expect(n).toMatch(/^ORD-\d+$/);
    const client = new OrderPlacementHttpClient(orderProcess.url, serviceToken);
    const more = await client.allocateOrderNumbers(2);
    expect(more).toHaveLength(2);
    expect(new Set([...r.body.orderNumbers, ...more]).size).toBe(5);
  });

  it('the client throws UnavailableError when the order service cannot be reached or refuses', async () => {
    await expect(
      new OrderPlacementHttpClient('http://127.0.0.1:9', serviceToken).allocateOrderNumbers(2),
    ).rejects.toBeInstanceOf(UnavailableError);
    await expect(new OrderPlacementHttpClient(orderProcess.url, shopper).allocateOrderNumbers(2)).rejects.toThrow(
      /refused order-numbers \(403\)/,
    );
  });
});

describe('OrderPlacementHttpClient', () => {
  const ref = refOf('order_unknown0002', 2);

  it('answers null (and warns) when the order service cannot be reached: the payment is recorded either way', async () => {
    const warnings: string[] = [];
    const client = new OrderPlacementHttpClient('http://127.0.0.1:9', serviceToken, {
      warn: (_obj, msg) => void warnings.push(msg),
    });
    expect(await client.orderOfPayment(ref, 200)).toBeNull();
    expect(warnings).toEqual(['order service did not answer order-of-payment']);
  });

  it('throws on a refusal (a wiring mistake such as a shopper token), rather than hiding it', async () => {
    const client = new OrderPlacementHttpClient(orderProcess.url, shopper);
    await expect(client.orderOfPayment(ref, 200)).rejects.toBeInstanceOf(UnavailableError);
    await expect(client.orderOfPayment(ref, 200)).rejects.toThrow(/refused order-of-payment \(403\)/);
  });
});
