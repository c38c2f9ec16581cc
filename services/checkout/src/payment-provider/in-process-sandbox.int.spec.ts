import type { IncomingMessage } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, UnavailableError } from '@shop/shared/errors/errors';
import { createPool } from '@shop/shared/db/pool';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { createRazorpaySandbox, sandboxPay, type RazorpaySandbox } from '@shop/razorpay-sandbox';
import { loopbackServers } from '@shop/test-support/loopback-servers';
import { guestOrder, fromBuyer } from '@shop/test-support/purchase';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { testConfig } from '@shop/test-support/test-host';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { paymentSettings } from '../payment/provider-settings.ts';
import { waitUntil } from '@shop/test-support/wait-until';
import {
  createInProcessSandboxProvider,
  createRazorpayProvider,
  ProviderOrderUnknownError,
  verifyPaymentSignature,
  webhookSignature,
  type PaymentProvider,
} from './index.ts';

// The sandbox called in process (the embedded shop's provider and webhooks) against the same sandbox over
// HTTP through the real SDK: the same answers, the same errors; and which one the shop picks.

const keyId = 'rzp_test_inProcess01';
const keySecret = 'in-process-key-secret';

const servers = loopbackServers();
let db: TestDatabase;
let sandbox: RazorpaySandbox;
let sandboxUrl: string;
let overHttp: PaymentProvider;
let inProcess: PaymentProvider;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = createRazorpaySandbox({ keyId, keySecret, pool: db.pool, basePath: '/razorpay-sandbox' });
  const app = express();
  app.use('/razorpay-sandbox', sandbox.router);
  sandboxUrl = `${(await servers.serve(app)).url}/razorpay-sandbox`;
  overHttp = createRazorpayProvider({ keyId, keySecret, apiUrl: sandboxUrl });
  inProcess = createInProcessSandboxProvider(keyId, sandbox.api);
});

afterAll(async () => {
  await sandbox?.close();
  await servers.closeAll();
  await db?.drop();
});

/** What a caller can tell of a failure: its class, kind, message and whether to retry. */
async function failureOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = err as AppError;
    return {
      class: e.constructor.name,
      isAppError: e instanceof AppError,
      kind: e.kind,
      message: e.message,
      retriable: e.retriable,
      orderId: (e as Partial<ProviderOrderUnknownError>).orderId,
    };
  }
  throw new Error('expected the call to fail');
}

describe('the sandbox provider in process', () => {
  it('answers as the SDK over HTTP does: orders, payments and refunds read the same either way', async () => {
    const order = await inProcess.createOrder({
      amountPaise: 64_900,
      currency: 'INR',
      receipt: 'rcpt_in_process_1',
      notes: { shop: 'kapda' },
    });
    expect(order).toMatchObject({
      amount: 64_900,
      amount_due: 64_900,
      receipt: 'rcpt_in_process_1',
      status: 'created',
    });
    expect(await overHttp.fetchOrder(order.id)).toEqual(order);
    expect(await inProcess.fetchOrder(order.id)).toEqual(order);
    expect(await inProcess.fetchPayments(order.id)).toEqual([]);

    const paid = await sandboxPay(sandboxUrl, order.id);
    expect(
      verifyPaymentSignature({
        orderId: order.id,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
        secret: keySecret,
      }),
    ).toBe(true);
    expect(await inProcess.fetchOrder(order.id)).toEqual(await overHttp.fetchOrder(order.id));
    const payments = await inProcess.fetchPayments(order.id);
    expect(payments).toEqual(await overHttp.fetchPayments(order.id));
    expect(payments).toEqual([expect.objectContaining({ id: paid.razorpay_payment_id, status: 'captured' })]);

    const first = await inProcess.refund(paid.razorpay_payment_id, 20_000, { receipt: 'rfnd_in_process_1' });
    const second = await overHttp.refund(paid.razorpay_payment_id, 10_000, { receipt: 'rfnd_over_http_1' });
    const refunds = await inProcess.fetchRefunds(paid.razorpay_payment_id);
    expect(refunds).toEqual(await overHttp.fetchRefunds(paid.razorpay_payment_id));
    expect(refunds).toEqual([first, second]);
  });

  it('fails with the same error types, messages and retriability as the SDK over HTTP', async () => {
    const order = await overHttp.createOrder({ amountPaise: 30_000, currency: 'INR', receipt: 'rcpt_errors' });
    const paymentId = (await sandboxPay(sandboxUrl, order.id)).razorpay_payment_id;
    const failedOrder = await overHttp.createOrder({ amountPaise: 30_000, currency: 'INR', receipt: 'rcpt_fail' });
    const failed = await fetch(`${sandboxUrl}/v1/checkout/orders/${failedOrder.id}/fail`, { method: 'POST' });
    const failedPaymentId = ((await failed.json()) as { error: { metadata: { payment_id: string } } }).error.metadata
      .payment_id;

    const calls: Array<[string, (p: PaymentProvider) => Promise<unknown>]> = [
      ['unknown order', (p) => p.fetchOrder('order_DoesNotExist01')],
      ['payments of an unknown order', (p) => p.fetchPayments('order_DoesNotExist01')],
      ['refunds of an unknown payment', (p) => p.fetchRefunds('pay_DoesNotExist01')],
      ['refund of an unknown payment', (p) => p.refund('pay_DoesNotExist01', 100, { receipt: 'r' })],
      ['refund over the captured amount', (p) => p.refund(paymentId, 30_100, { receipt: 'r_over' })],
      ['refund of a failed payment', (p) => p.refund(failedPaymentId, 100, { receipt: 'r_failed' })],
      ['an id that is not an order id', (p) => p.fetchPayments('order_x/../../payments')],
      ['an amount under ₹1', (p) => p.createOrder({ amountPaise: 99, currency: 'INR', receipt: 'r' })],
      ['a receipt too long', (p) => p.createOrder({ amountPaise: 100, currency: 'INR', receipt: 'r'.repeat(41) })],
    ];
    for (const [what, call] of calls) {
      const viaHttp = await failureOf(call(overHttp));
      expect({ what, ...(await failureOf(call(inProcess))) }).toEqual({ what, ...viaHttp });
      expect(viaHttp.isAppError).toBe(true);
    }
    expect(await failureOf(inProcess.fetchOrder('order_DoesNotExist01'))).toMatchObject({
      class: 'ProviderOrderUnknownError',
      message: 'The id provided does not exist',
      retriable: false,
    });
    expect(await failureOf(inProcess.refund(paymentId, 30_100, { receipt: 'r_over' }))).toMatchObject({
      class: 'ValidationError',
      message: 'The refund amount provided is greater than amount captured',
    });
  });

  it("answers the sandbox's own failure (its database gone) as the same retriable UnavailableError", async () => {
    const pool = createPool(db.url, 1);
    await pool.end();
    const broken = createRazorpaySandbox({ keyId, keySecret, pool, basePath: '/razorpay-sandbox' });
    const app = express();
    app.use('/razorpay-sandbox', broken.router);
    const brokenOverHttp = createRazorpayProvider({
      keyId,
      keySecret,
      apiUrl: `${(await servers.serve(app)).url}/razorpay-sandbox`,
    });
    const brokenInProcess = createInProcessSandboxProvider(keyId, broken.api);
    const create = (p: PaymentProvider) => p.createOrder({ amountPaise: 10_000, currency: 'INR', receipt: 'r' });
    const viaHttp = await failureOf(create(brokenOverHttp));
    expect(viaHttp).toMatchObject({
      class: UnavailableError.name,
      message: 'We are facing some trouble completing your request at the moment. Please try again shortly.',
      retriable: true,
    });
    expect(await failureOf(create(brokenInProcess))).toEqual(viaHttp);
    expect(await failureOf(brokenInProcess.fetchOrder('order_Abcdefghijklmn'))).toEqual(
      await failureOf(brokenOverHttp.fetchOrder('order_Abcdefghijklmn')),
    );
    await broken.close();
  });
});

const WEBHOOK_SECRET = 'in-process-webhook-secret';

/** Every request the shop's HTTP server receives, as 'METHOD /path'. */
function requestsTo(shop: TestShop): string[] {
  const seen: string[] = [];
  shop.server.on('request', (req: IncomingMessage) => seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`));
  return seen;
}

async function newProduct(shop: TestShop, admin: string, quantity = 5): Promise<string> {
  const form = new FormData();
  const fields = { name: `Kurta ${Math.random().toString(36).slice(2, 8)}`, category: 'Men', price: '500' };
  for (const [k, v] of Object.entries({ ...fields, quantity: String(quantity) })) form.append(k, v);
  const r = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function createOrder(shop: TestShop, productId: string, buyer: number): Promise<string> {
  const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
    headers: fromBuyer(buyer),
    body: guestOrder(`rcpt_inproc_${buyer}`, buyer, [{ productId, quantity: 1 }]),
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('the embedded shop hosting the sandbox', () => {
  let shop: TestShop;
  let admin: string;
  let requests: string[];
  beforeAll(async () => {
    shop = await startTestShop({ env: { RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    admin = await shop.login();
    requests = requestsTo(shop);
  });
  afterAll(() => shop?.stop());

  const webhookEvents = async () =>
    (
      await shop.db.pool.query<{ event_id: string; event: string; outcome: string | null; processed: boolean }>(
        `SELECT event_id, event, outcome, processed_at IS NOT NULL AS processed FROM checkout.webhook_events
          ORDER BY received_at, event`,
      )
    ).rows;
  const eventsOf = async (orderId: string, type: string) =>
    (
      await shop.db.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = $2',
        [paymentStreamId(orderId), type],
      )
    ).rows[0]!.n;

  it('calls the sandbox in process for create-order (no request to its API) and takes its webhooks in process, once each', async () => {
    const productId = await newProduct(shop, admin);
    const orderId = await createOrder(shop, productId, 1);
    expect(orderId).toMatch(/^order_[A-Za-z0-9]{14}$/);
    // The sandbox made the order, though nothing asked its HTTP API for it.
    const made = await shop.db.pool.query('SELECT 1 FROM razorpay_sandbox.orders WHERE id = $1', [orderId]);
    expect(made.rowCount).toBe(1);
    expect(requests.filter((r) => r.startsWith('POST /razorpay-sandbox/v1/orders'))).toEqual([]);

    // The shopper's dialog pays over HTTP; the webhooks that follow never touch the HTTP route.
    await sandboxPay(`${shop.url}/razorpay-sandbox`, orderId);
    await waitUntil(async () => {
      const rows = await webhookEvents();
      return rows.length === 2 && rows.every((r) => r.processed);
    }, 'payment.captured and order.paid processed');
    const rows = await webhookEvents();
    expect(rows.map((r) => r.event).sort()).toEqual(['order.paid', 'payment.captured']);
    expect(rows.map((r) => r.outcome)).toEqual(['recorded', 'recorded']);
    expect(await eventsOf(orderId, 'PaymentVerified')).toBe(1);
    expect(requests.filter((r) => r.includes('/api/payment/webhook'))).toEqual([]);
    expect(requests.filter((r) => r.startsWith('POST /razorpay-sandbox/v1/checkout/orders/'))).toHaveLength(1);

    // The in-process deliveries claimed their event ids in the same table the HTTP route claims them in: a
    // redelivery of one of them over HTTP is a duplicate, and records nothing more.
    const raw = JSON.stringify({
      entity: 'event',
      event: 'payment.captured',
      payload: { payment: { entity: { id: 'pay_Redelivered001', order_id: orderId } } },
    });
    const redelivered = await fetch(`${shop.url}/api/payment/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': webhookSignature(raw, WEBHOOK_SECRET),
        'x-razorpay-event-id': rows[0]!.event_id,
      },
      body: raw,
    });
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toEqual({ status: 'duplicate' });
    expect(await eventsOf(orderId, 'PaymentVerified')).toBe(1);
    expect(await webhookEvents()).toHaveLength(2);
  });

  it("takes the sandbox's payment.failed webhook in process: the checkout is released", async () => {
    const productId = await newProduct(shop, admin);
    const orderId = await createOrder(shop, productId, 2);
    const before = requests.length;
    const res = await fetch(`${shop.url}/razorpay-sandbox/v1/checkout/orders/${orderId}/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    await waitUntil(async () => (await eventsOf(orderId, 'PaymentFailed')) === 1, 'the payment.failed webhook');
    expect(requests.slice(before).filter((r) => r.includes('/api/payment/webhook'))).toEqual([]);
  });
});

describe('a shop whose provider is elsewhere calls it over HTTP', () => {
  // A Razorpay stand-in in another "process": its own server and database, with the key pair a test shop
  // without Razorpay keys derives from its JWT secret (the key pair the configured case sets too).
  const keys = paymentSettings(testConfig('postgres://unused/unused', '/tmp'), 'http://unused');
  let remote: TestDatabase;
  let remoteSandbox: RazorpaySandbox;
  let remoteUrl: string;
  const remoteRequests: string[] = [];
  beforeAll(async () => {
    remote = await createTestDatabase();
    remoteSandbox = createRazorpaySandbox({
      keyId: keys.keyId,
      keySecret: keys.keySecret,
      pool: remote.pool,
      basePath: '/rzp',
    });
    const app = express();
    app.use((req, _res, next) => {
      remoteRequests.push(`${req.method} ${req.path}`);
      next();
    });
    app.use('/rzp', remoteSandbox.router);
    remoteUrl = `${(await servers.serve(app)).url}/rzp`;
  });
  afterAll(async () => {
    await remoteSandbox?.close();
    await remote?.drop();
  });

  it.each([
    ['Razorpay keys configured', { RAZORPAY_KEY_ID: keys.keyId, RAZORPAY_KEY_SECRET: keys.keySecret }],
    ['RAZORPAY_API_URL naming a sandbox elsewhere', {}],
  ])('%s', async (_what, env) => {
    const shop = await startTestShop({ env: { ...env, RAZORPAY_API_URL: remoteUrl } });
    try {
      const requests = requestsTo(shop);
      const admin = await shop.login();
      const productId = await newProduct(shop, admin);
      const before = remoteRequests.length;
      const created = await shop.api<{ id: string; message?: string }>('POST', '/api/payment/create-order', {
        headers: fromBuyer(3),
        body: guestOrder('rcpt_remote', 3, [{ productId, quantity: 1 }]),
      });
      expect(created.status).toBe(201);
      // The remote sandbox was asked over HTTP and holds the order; the shop's own sandbox was not asked.
      expect(remoteRequests.slice(before)).toEqual(['POST /rzp/v1/orders']);
      const held = await remote.pool.query('SELECT 1 FROM razorpay_sandbox.orders WHERE id = $1', [created.body.id]);
      expect(held.rowCount).toBe(1);
      expect(requests.filter((r) => r.startsWith('POST /razorpay-sandbox/v1/orders'))).toEqual([]);
    } finally {
      await shop.stop();
    }
  });
});
