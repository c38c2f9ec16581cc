import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import { listen } from '@shop/shared/runtime/host';
import { loopbackServers } from '@shop/test-support/loopback-servers';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import {
  createRazorpaySandbox,
  sandboxPay,
  type RazorpaySandbox,
  type RazorpayWebhookBody,
} from '@shop/razorpay-sandbox';
import {
  createRazorpayProvider,
  ProviderOrderUnknownError,
  verifyPaymentSignature,
  verifyWebhookSignature,
  type PaymentProvider,
} from './index.ts';

// The real razorpay SDK, over HTTP, against the sandbox mounted the way the gateway mounts it.

const keyId = 'rzp_test_sandboxKey01';
const keySecret = 'sandbox-key-secret';
const webhookSecret = 'sandbox-webhook-secret';

interface Delivery {
  eventId: string;
  signature: string;
  raw: Buffer;
  body: RazorpayWebhookBody;
  answered: number;
}

const servers = loopbackServers();
let db: TestDatabase;
let sandbox: RazorpaySandbox;
let sandboxUrl: string;
let provider: PaymentProvider;
const deliveries: Delivery[] = [];
/** Orders whose first webhook delivery the receiver answers with a 503, to see the sandbox retry. */
const refuseFirstDeliveryFor = new Set<string>();

const serve = async (app: express.Express) => (await servers.serve(app)).url;

const orderIdOf = (b: RazorpayWebhookBody) => b.payload.payment.entity.order_id;
const deliveriesFor = (orderId: string, event?: string) =>
  deliveries.filter((d) => orderIdOf(d.body) === orderId && (!event || d.body.event === event));

beforeAll(async () => {
  const receiver = express();
  receiver.post('/api/payment/webhook', express.raw({ type: '*/*' }), (req, res) => {
    const raw = req.body as Buffer;
    const body = JSON.parse(raw.toString('utf8')) as RazorpayWebhookBody;
    const refuse = refuseFirstDeliveryFor.delete(orderIdOf(body));
    deliveries.push({
      eventId: String(req.headers['x-razorpay-event-id']),
      signature: String(req.headers['x-razorpay-signature']),
      raw,
      body,
      answered: refuse ? 503 : 200,
    });
    res.sendStatus(refuse ? 503 : 200);
  });
  const receiverUrl = await serve(receiver);

  db = await createTestDatabase();
  sandbox = createRazorpaySandbox({
    keyId,
    keySecret,
    pool: db.pool,
    webhookSecret,
    webhookUrl: `${receiverUrl}/api/payment/webhook`,
    basePath: '/razorpay-sandbox',
    webhookRetry: { attempts: 4, firstRetryDelayMs: 20 },
  });
  const app = express();
  app.use('/razorpay-sandbox', sandbox.router);
  sandboxUrl = `${await serve(app)}/razorpay-sandbox`;
  provider = createRazorpayProvider({ keyId, keySecret, apiUrl: sandboxUrl });
});

afterAll(async () => {
  await sandbox?.close();
  await servers.closeAll();
  await db?.drop();
});

const newOrder = (amountPaise = 49_900, receipt = `rcpt_${Math.random().toString(36).slice(2, 10)}`) =>
  provider.createOrder({ amountPaise, currency: 'INR', receipt, notes: { shop: 'kapda' } });

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('razorpay provider against the sandbox', () => {
  it('creates an order that echoes amount, currency and receipt, and fetches it back', async () => {
    const order = await newOrder(129_950, 'rcpt_create_1');
    expect(order).toMatchObject({
      amount: 129_950,
      amount_paid: 0,
      amount_due: 129_950,
      currency: 'INR',
      receipt: 'rcpt_create_1',
      status: 'created',
    });
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(Math.abs(order.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(await provider.fetchOrder(order.id)).toEqual(order);
    expect(await provider.fetchPayments(order.id)).toEqual([]);
  });

  it('accepts an API URL given with a trailing /v1 (the SDK adds /v1 itself)', async () => {
    const withV1 = createRazorpayProvider({ keyId, keySecret, apiUrl: `${sandboxUrl}/v1/` });
    const order = await withV1.createOrder({ amountPaise: 10_000, currency: 'INR', receipt: 'r_v1' });
    expect(await provider.fetchOrder(order.id)).toMatchObject({ receipt: 'r_v1' });
  });

  it('answers the raw order in Razorpay shape to the API', async () => {
    const r = await fetch(`${sandboxUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: basic(keyId, keySecret), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 50_000, currency: 'INR', receipt: 'r1' }),
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ entity: 'order', offer_id: null, attempts: 0, notes: [] });
  });

  it('refuses a wrong key with an error that carries the provider description', async () => {
    const wrong = createRazorpayProvider({ keyId, keySecret: 'not-the-secret', apiUrl: sandboxUrl });
    const err = await rejection(wrong.createOrder({ amountPaise: 10_000, currency: 'INR', receipt: 'r' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe('Authentication failed');

    const r = await fetch(`${sandboxUrl}/v1/orders/order_x`);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Authentication failed',
        source: 'NA',
        step: 'NA',
        reason: 'NA',
        metadata: {},
      },
    });
  });

  it("passes on the sandbox's refusals of bad orders as validation errors, and an unknown order id as ProviderOrderUnknownError", async () => {
    const tooSmall = await fetch(`${sandboxUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: basic(keyId, keySecret), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 99, currency: 'INR' }),
    });
    expect(tooSmall.status).toBe(400);
    expect(await tooSmall.json()).toMatchObject({
      error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be atleast INR 1.00', field: 'amount' },
    });

    const unknown = await rejection(provider.fetchOrder('order_DoesNotExist01'));
    expect(unknown).toBeInstanceOf(ProviderOrderUnknownError);
    expect(unknown).toMatchObject({ orderId: 'order_DoesNotExist01', message: 'The id provided does not exist' });
    expect((unknown as ProviderOrderUnknownError).retriable).toBe(false);
    const unknownPayments = await rejection(provider.fetchPayments('order_DoesNotExist01'));
    expect(unknownPayments).toBeInstanceOf(ProviderOrderUnknownError);

    // Checked before any request: the SDK would paste this into the URL path.
    await expect(provider.fetchPayments('order_x/../../payments')).rejects.toThrow('Invalid payment order id');
    await expect(newOrder(99)).rejects.toBeInstanceOf(ValidationError);
    await expect(provider.createOrder({ amountPaise: 100.5, currency: 'INR', receipt: 'r' })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('does not take a 404 for a wrong API path as "unknown order" (that would expire orders that may be paid)', async () => {
    const misrouted = createRazorpayProvider({ keyId, keySecret, apiUrl: `${sandboxUrl}/nowhere` });
    const err = await rejection(misrouted.fetchPayments('order_DoesNotExist01'));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).not.toBeInstanceOf(ProviderOrderUnknownError);
    expect((err as Error).message).toBe('The requested URL was not found on the server.');
  });

  it('pays through the dialog endpoint: a signature that verifies, a paid order, a captured payment', async () => {
    const order = await newOrder(49_900);
    const paid = await sandboxPay(sandboxUrl, order.id);
    expect(paid.razorpay_order_id).toBe(order.id);
    expect(paid.razorpay_payment_id).toMatch(/^pay_[A-Za-z0-9]{14}$/);
    expect(
      verifyPaymentSignature({
        orderId: order.id,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
        secret: keySecret,
      }),
    ).toBe(true);
    expect(
      verifyPaymentSignature({
        orderId: order.id,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
        secret: 'another-secret',
      }),
    ).toBe(false);

    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'paid', amount_paid: 49_900, amount_due: 0 });
    const payments = await provider.fetchPayments(order.id);
    expect(payments).toEqual([
      expect.objectContaining({
        id: paid.razorpay_payment_id,
        order_id: order.id,
        amount: 49_900,
        currency: 'INR',
        status: 'captured',
        method: 'card',
      }),
    ]);
    expect(payments[0]!.error_description).toBeUndefined();

    const again = await fetch(`${sandboxUrl}/v1/checkout/orders/${order.id}/pay`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({
      error: { code: 'BAD_REQUEST_ERROR', description: 'Order has already been paid' },
    });
    await expect(sandboxPay(sandboxUrl, order.id)).rejects.toThrow('Order has already been paid');
    expect(await provider.fetchPayments(order.id)).toHaveLength(1);

    const unknown = await fetch(`${sandboxUrl}/v1/checkout/orders/order_DoesNotExist01/pay`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it('refunds a captured payment through the SDK: partly, then the rest (payment refunded), never more than captured', async () => {
    const order = await newOrder(60_000);
    const paymentId = (await sandboxPay(sandboxUrl, order.id)).razorpay_payment_id;
    const first = await provider.refund(paymentId, 20_000, { receipt: 'refund_part_1' });
    expect(first).toMatchObject({
      id: expect.stringMatching(/^rfnd_[A-Za-z0-9]{14}$/),
      payment_id: paymentId,
      amount: 20_000,
      currency: 'INR',
      receipt: 'refund_part_1',
      status: 'processed',
    });
    const raw = await fetch(`${sandboxUrl}/v1/payments/${paymentId}`, {
      headers: { authorization: basic(keyId, keySecret) },
    });
    expect(await raw.json()).toMatchObject({ status: 'captured', amount_refunded: 20_000, refund_status: 'partial' });

    const over = await rejection(provider.refund(paymentId, 40_100, { receipt: 'refund_part_2' }));
    expect(over).toBeInstanceOf(ValidationError);
    expect((over as ValidationError).message).toBe('The refund amount provided is greater than amount captured');

    const rest = await provider.refund(paymentId, 40_000, { receipt: 'refund_part_2' });
    expect((await provider.fetchRefunds(paymentId)).map((r) => [r.id, r.amount, r.receipt])).toEqual([
      [first.id, 20_000, 'refund_part_1'],
      [rest.id, 40_000, 'refund_part_2'],
    ]);
    expect(await provider.fetchPayments(order.id)).toEqual([expect.objectContaining({ status: 'refunded' })]);
    const again = await rejection(provider.refund(paymentId, 100, { receipt: 'refund_part_3' }));
    expect((again as ValidationError).message).toBe('The payment has been fully refunded already');
  });

  it('refuses to refund a payment that was not captured, and answers the refund API in Razorpay shape', async () => {
    const order = await newOrder(30_000);
    const failed = await fetch(`${sandboxUrl}/v1/checkout/orders/${order.id}/fail`, { method: 'POST' });
    const { error } = (await failed.json()) as { error: { metadata: { payment_id: string } } };
    const paymentId = error.metadata.payment_id;
    const refused = await rejection(provider.refund(paymentId, 30_000, { receipt: 'refund_failed_payment' }));
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).message).toBe('The payment has not been captured, so it cannot be refunded');

    const paid = await newOrder(30_000);
    const captured = (await sandboxPay(sandboxUrl, paid.id)).razorpay_payment_id;
    const post = (body: unknown) =>
      fetch(`${sandboxUrl}/v1/payments/${captured}/refund`, {
        method: 'POST',
        headers: { authorization: basic(keyId, keySecret), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post({ amount: 99 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be atleast INR 1.00', field: 'amount' },
    });
    const whole = await post({ speed: 'optimum', notes: { reason: 'test' } }); // no amount: the whole payment
    expect(whole.status).toBe(200);
    expect(await whole.json()).toMatchObject({
      entity: 'refund',
      amount: 30_000,
      payment_id: captured,
      status: 'processed',
      speed_requested: 'optimum',
      notes: { reason: 'test' },
    });
    const list = await fetch(`${sandboxUrl}/v1/payments/${captured}/refunds`, {
      headers: { authorization: basic(keyId, keySecret) },
    });
    expect(await list.json()).toMatchObject({ entity: 'collection', count: 1, items: [{ amount: 30_000 }] });
    const unknown = await rejection(provider.fetchRefunds('pay_DoesNotExist01'));
    expect((unknown as ValidationError).message).toBe('The id provided does not exist');
    const noKey = await fetch(`${sandboxUrl}/v1/payments/${captured}/refunds`);
    expect(noKey.status).toBe(401);
  });

  it('sends signed payment.captured and order.paid webhooks with unique event ids', async () => {
    const order = await newOrder(75_000);
    const paid = await sandboxPay(sandboxUrl, order.id);
    await waitUntil(async () => deliveriesFor(order.id).length >= 2, 'payment.captured and order.paid webhooks');

    const got = deliveriesFor(order.id);
    expect(got.map((d) => d.body.event)).toEqual(['payment.captured', 'order.paid']);
    for (const d of got) {
      expect(verifyWebhookSignature(d.raw, d.signature, webhookSecret)).toBe(true);
      expect(verifyWebhookSignature(d.raw, d.signature, keySecret)).toBe(false);
      expect(d.eventId).toMatch(/^[A-Za-z0-9]{14}$/);
      expect(d.body).toMatchObject({ entity: 'event', account_id: expect.stringMatching(/^acc_/) });
      expect(d.body.payload.payment.entity).toMatchObject({
        id: paid.razorpay_payment_id,
        order_id: order.id,
        amount: 75_000,
        status: 'captured',
      });
    }
    expect(new Set(got.map((d) => d.eventId)).size).toBe(2);
    const orderPaid = got.find((d) => d.body.event === 'order.paid')!;
    expect(orderPaid.body.contains).toEqual(['payment', 'order']);
    expect(orderPaid.body.payload.order?.entity).toMatchObject({ id: order.id, status: 'paid', amount_paid: 75_000 });
  });

  it('retries a refused webhook with the same event id, and stops once it is taken', async () => {
    const order = await newOrder();
    refuseFirstDeliveryFor.add(order.id);
    await sandboxPay(sandboxUrl, order.id);
    await waitUntil(async () => deliveriesFor(order.id, 'order.paid').length >= 1, 'order.paid after a retry');

    const captured = deliveriesFor(order.id, 'payment.captured');
    expect(captured.map((d) => d.answered)).toEqual([503, 200]);
    expect(captured[0]!.eventId).toBe(captured[1]!.eventId);
    expect(captured[0]!.raw.equals(captured[1]!.raw)).toBe(true);
    expect(deliveriesFor(order.id, 'order.paid')).toHaveLength(1);
  });

  it('fails a payment through the dialog endpoint: error object, failed payment, payment.failed webhook; the order can still be paid', async () => {
    const order = await newOrder(20_000);
    const r = await fetch(`${sandboxUrl}/v1/checkout/orders/${order.id}/fail`, { method: 'POST' });
    expect(r.status).toBe(200);
    const failure = (await r.json()) as { error: { metadata: { order_id: string; payment_id: string } } };
    expect(failure).toMatchObject({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Payment failed (sandbox)',
        reason: 'payment_failed',
        metadata: { order_id: order.id, payment_id: expect.stringMatching(/^pay_/) },
      },
    });

    await waitUntil(async () => deliveriesFor(order.id, 'payment.failed').length >= 1, 'payment.failed webhook');
    const [failed] = deliveriesFor(order.id, 'payment.failed');
    expect(verifyWebhookSignature(failed!.raw, failed!.signature, webhookSecret)).toBe(true);
    expect(failed!.body.contains).toEqual(['payment']);
    expect(failed!.body.payload.payment.entity).toMatchObject({
      id: failure.error.metadata.payment_id,
      status: 'failed',
      error_description: 'Payment failed (sandbox)',
    });

    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'attempted', amount_paid: 0 });
    expect(await provider.fetchPayments(order.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_description: 'Payment failed (sandbox)' }),
    ]);

    const paid = await sandboxPay(sandboxUrl, order.id);
    expect(await provider.fetchOrder(order.id)).toMatchObject({ status: 'paid' });
    expect((await provider.fetchPayments(order.id)).map((p) => [p.id, p.status])).toEqual([
      [failure.error.metadata.payment_id, 'failed'],
      [paid.razorpay_payment_id, 'captured'],
    ]);
  });

  it('serves checkout.js without a key', async () => {
    const r = await fetch(`${sandboxUrl}/v1/checkout.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    const js = await r.text();
    expect(js).toContain('window.Razorpay = Razorpay');
    expect(js).toContain('"/razorpay-sandbox"');
  });
});

describe('razorpay provider when the provider is down or broken', () => {
  it('says the provider is unreachable (an UnavailableError, not a TypeError) when nothing listens', async () => {
    const { server, port } = await listen(express(), 0, '127.0.0.1');
    await new Promise((r) => server.close(r));
    const down = createRazorpayProvider({ keyId, keySecret, apiUrl: `http://127.0.0.1:${port}` });

    for (const call of [
      () => newOrderOn(down),
      () => down.fetchOrder('order_Abc'),
      () => down.fetchPayments('order_Abc'),
      () => down.refund('pay_Abc', 100, { receipt: 'r' }),
      () => down.fetchRefunds('pay_Abc'),
    ]) {
      const err = await rejection(call());
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as UnavailableError).message).toBe('Payment provider is unreachable, please try again');
      expect((err as UnavailableError).retriable).toBe(true);
      // The socket error is kept for the logs.
      expect(JSON.stringify((err as UnavailableError).cause)).toContain('ECONNREFUSED');
    }
  });

  it('gives up on a provider that never answers after the timeout, as unavailable', async () => {
    const hung = express();
    hung.post('/v1/orders', () => undefined);
    const slow = createRazorpayProvider({ keyId, keySecret, apiUrl: await serve(hung), timeoutMs: 200 });
    const err = await rejection(newOrderOn(slow));
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toBe('Payment provider is unreachable, please try again');
  });

  it("passes a provider 5xx on as unavailable with the provider's description, and a non-JSON answer too", async () => {
    const broken = express();
    broken.post('/v1/orders', (_req, res) => {
      res.status(500).json({
        error: {
          code: 'SERVER_ERROR',
          description: 'We are facing some trouble',
          source: 'NA',
          step: 'NA',
          reason: 'NA',
        },
      });
    });
    broken.get('/v1/orders/:id', (_req, res) => void res.status(502).type('html').send('<h1>Bad gateway</h1>'));
    broken.get('/v1/orders/:id/payments', (_req, res) => void res.type('html').send('<html>not an API</html>'));
    const brokenProvider = createRazorpayProvider({ keyId, keySecret, apiUrl: `${await serve(broken)}/` });

    const e500 = await rejection(newOrderOn(brokenProvider));
    expect(e500).toBeInstanceOf(UnavailableError);
    expect((e500 as Error).message).toBe('We are facing some trouble');

    const e502 = await rejection(brokenProvider.fetchOrder('order_Abc'));
    expect(e502).toBeInstanceOf(UnavailableError);
    expect((e502 as Error).message).toBe('Payment provider failed, please try again');

    const html = await rejection(brokenProvider.fetchPayments('order_Abc'));
    expect(html).toBeInstanceOf(UnavailableError);
    expect((html as Error).message).toBe('Payment provider gave an unexpected answer, please try again');
  });
});

const newOrderOn = (p: PaymentProvider) => p.createOrder({ amountPaise: 10_000, currency: 'INR', receipt: 'r' });
