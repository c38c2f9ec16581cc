import { describe, expect, it } from 'vitest';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { webhookSignature } from '@shop/razorpay-sandbox/signatures';
import type { SandboxPayment, SandboxRefund } from '@shop/razorpay-sandbox';
import { paymentSettings } from '../payment/provider-settings.ts';
import type { RefundView } from './read-models/refunds-projection.ts';
import { testShopForTests } from '@shop/test-support/file-shop';
import { createProduct as listProduct } from '@shop/test-support/fixtures';
import { guestOrderData } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';

// Money the shop took but cannot turn into an order goes back to the payer through the provider, exactly
// once, however many times the provider reports the payment; admins see it at /api/payment/admin/refunds.

// a short hold, to watch it lapse
const running = testShopForTests({ env: { RESERVATION_TTL_SECONDS: '2' } });

const sandbox = () => `${running.shop.url}/razorpay-sandbox`;
const keys = () => paymentSettings(running.shop.infra.config, running.shop.url);
const sandboxGet = async <T>(path: string): Promise<T> => {
  const { keyId, keySecret } = keys();
  const res = await fetch(`${sandbox()}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const from = (buyer: number) => ({ 'x-forwarded-for': `10.9.${(buyer >> 8) & 255}.${buyer & 255}` });

const createProduct = (fields: Record<string, string>) => listProduct(running.shop.api, running.admin, fields);

const orderData = (buyer: number, productId: string) => guestOrderData(buyer, [{ productId, quantity: 1 }]);

/** One webhook delivery, signed as Razorpay signs it; the shop's answer. */
async function deliver(eventId: string, body: unknown): Promise<{ status: number; body: { status?: string } }> {
  const raw = JSON.stringify(body);
  const res = await fetch(`${running.shop.url}/api/payment/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': webhookSignature(raw, keys().webhookSecret!),
      'x-razorpay-event-id': eventId,
    },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as { status?: string } };
}

const captured = (payment: SandboxPayment) => ({
  entity: 'event',
  account_id: 'acc_test',
  event: 'payment.captured',
  contains: ['payment'],
  payload: { payment: { entity: payment } },
  created_at: Math.floor(Date.now() / 1000),
});

const countOf = async (orderId: string, type: string) =>
  (
    await running.shop.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = $2',
      [paymentStreamId(orderId), type],
    )
  ).rows[0]!.n;

const adminRefunds = async () =>
  (await running.shop.api<RefundView[]>('GET', '/api/payment/admin/refunds', { token: running.admin })).body;

describe('refunds', () => {
  it('a payment captured after its hold lapsed is refunded exactly once, whatever reports it, and admins see it', async () => {
    const productId = await createProduct({ name: 'Late Saree', price: '1999', quantity: '1', category: 'Women' });
    const order = await running.shop.api<{ id: string }>('POST', '/api/payment/create-order', {
      headers: from(1),
      body: { amount: 1, currency: 'INR', receipt: `rcpt_late_${Date.now()}`, orderData: orderData(1, productId) },
    });
    expect(order.status).toBe(201);
    const orderId = order.body.id;
    await waitUntil(async () => (await countOf(orderId, 'PaymentOrderExpired')) === 1, 'the hold to lapse');

    // The shopper pays anyway: the sandbox sends its own webhooks, the browser verifies late, and one event
    // is delivered 20 times at once.
    const paid = await sandboxPay(sandbox(), orderId);
    const payment = await sandboxGet<SandboxPayment>(`/v1/payments/${paid.razorpay_payment_id}`);
    const eventId = `evt_dup_${Date.now()}`;
    const [late, ...deliveries] = await Promise.all([
      running.shop.api<{ message: string }>('POST', '/api/payment/verify', { headers: from(2), body: paid }),
      ...Array.from({ length: 20 }, () => deliver(eventId, captured(payment))),
    ]);
    expect(late.status).toBe(409);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(deliveries.map((d) => d.body.status).sort()).toEqual([...Array(19).fill('duplicate'), 'refund_due']);

    const shown = await waitUntil(
      async () => (await adminRefunds()).find((r) => r.razorpayOrderId === orderId && r.status === 'refunded'),
      'the refund to show as refunded',
    );
    const refunds = await sandboxGet<{ items: SandboxRefund[] }>(`/v1/payments/${payment.id}/refunds`);
    expect(refunds.items).toHaveLength(1);
    expect(refunds.items[0]).toMatchObject({ amount: 199_900, status: 'processed' });
    expect(await sandboxGet<SandboxPayment>(`/v1/payments/${payment.id}`)).toMatchObject({
      status: 'refunded',
      amount_refunded: 199_900,
      refund_status: 'full',
    });
    expect(shown).toMatchObject({
      razorpayPaymentId: payment.id,
      customerEmail: 'buyer1@example.in',
      amount: 1999,
      reason: 'paid_after_expiry',
      status: 'refunded',
      refundId: refunds.items[0]!.id,
      attempts: 0,
      lastError: null,
    });
    expect(await countOf(orderId, 'RefundDue')).toBe(1);
    expect(await countOf(orderId, 'PaymentRefunded')).toBe(1);
    // a redelivery later still changes nothing
    expect((await deliver(eventId, captured(payment))).body.status).toBe('duplicate');
    expect((await deliver(`${eventId}_new`, captured(payment))).body.status).toBe('refund_due');
    expect(await countOf(orderId, 'RefundDue')).toBe(1);
    expect((await sandboxGet<{ items: SandboxRefund[] }>(`/v1/payments/${payment.id}/refunds`)).items).toHaveLength(1);
    const queued = await running.shop.db.pool.query('SELECT 1 FROM checkout.pending_refunds');
    expect(queued.rowCount).toBe(0);
  });

  it('money taken for a cart whose stock is gone at verify is refunded, and the payment never becomes an order', async () => {
    const productId = await createProduct({ name: 'Gone Kurta', price: '1200', quantity: '0', category: 'Men' });
    const open = await running.shop.api<{ id: string }>('POST', '/api/payment/create-order', {
      headers: from(3),
      body: { amount: 1200, currency: 'INR', receipt: `rcpt_gone_${Date.now()}` },
    });
    const paid = await sandboxPay(sandbox(), open.body.id);
    const refused = await running.shop.api<{ message: string }>('POST', '/api/payment/verify', {
      headers: from(3),
      body: { ...paid, orderData: orderData(3, productId) },
    });
    expect(refused.status).toBe(409);
    const shown = await waitUntil(
      async () => (await adminRefunds()).find((r) => r.razorpayOrderId === open.body.id && r.status === 'refunded'),
      'the refund of the refused order',
    );
    expect(shown).toMatchObject({ amount: 1200, reason: 'order_refused', customerEmail: 'buyer3@example.in' });
    expect(shown.detail).toContain('Gone Kurta');
    // the stock comes back: a retried verify still does not place the order
    await running.shop.api('PUT', `/api/products/${productId}`, {
      token: running.admin,
      form: formOf({ quantity: '5' }),
    });
    const retried = await running.shop.api<{ message: string }>('POST', '/api/payment/verify', {
      headers: from(3),
      body: { ...paid, orderData: orderData(3, productId) },
    });
    expect(retried.status).toBe(409);
    expect(await countOf(open.body.id, 'PaymentVerified')).toBe(0);
    expect(
      (await sandboxGet<{ items: SandboxRefund[] }>(`/v1/payments/${paid.razorpay_payment_id}/refunds`)).items,
    ).toHaveLength(1);
  });

  it('an event whose processing fails is not taken for a duplicate: its redelivery is processed again', async () => {
    // An order opened without a cart cannot be recorded from a webhook (its cart comes with verify): refused.
    const open = await running.shop.api<{ id: string }>('POST', '/api/payment/create-order', {
      headers: from(4),
      body: { amount: 500, currency: 'INR', receipt: `rcpt_open_${Date.now()}` },
    });
    const paid = await sandboxPay(sandbox(), open.body.id);
    const payment = await sandboxGet<SandboxPayment>(`/v1/payments/${paid.razorpay_payment_id}`);
    const eventId = `evt_fail_${Date.now()}`;
    const first = await deliver(eventId, captured(payment));
    expect(first.status).toBe(409);
    const again = await deliver(eventId, captured(payment));
    expect(again.status).toBe(409); // processed again, not answered 'duplicate'
    // concurrent deliveries of a failing event: each waits for the one at work, then tries in its turn
    const together = await Promise.all(Array.from({ length: 5 }, () => deliver(`${eventId}_b`, captured(payment))));
    expect(together.map((d) => d.status)).toEqual([409, 409, 409, 409, 409]);
    const claims = await running.shop.db.pool.query('SELECT 1 FROM checkout.webhook_events WHERE event_id LIKE $1', [
      `${eventId}%`,
    ]);
    expect(claims.rowCount).toBe(0); // every failed claim was given up
  });

  it('shows refunds to admins only', async () => {
    expect((await running.shop.api('GET', '/api/payment/admin/refunds')).status).toBe(401);
  });
});

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
