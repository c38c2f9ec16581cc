import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentStreamId, type PaymentEvent } from '@shop/shared/contracts/payment-events';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { listen } from '@shop/shared/runtime/host';
import { loopbackServers } from '@shop/test-support/loopback-servers';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { createRazorpaySandbox, sandboxPay, type RazorpaySandbox } from '@shop/razorpay-sandbox';
import { createRazorpayProvider, type PaymentProvider } from '../payment-provider/index.ts';
import { PaymentAfterExpiryError } from '../payment/decider.ts';
import { recordPaid } from '../payment/record-payment.ts';
import { PendingRefunds, refundingConsumer, refundReceipt } from './refunds.ts';

// A refund due is issued after its commit, through the real SDK against the sandbox: retried until the
// provider takes it, and exactly once, even when an earlier attempt died after the provider refunded.

const keyId = 'rzp_test_refunds01';
const keySecret = 'refunds-key-secret';
const servers = loopbackServers();
let db: TestDatabase;
let sandbox: RazorpaySandbox;
let sandboxUrl: string;
let provider: PaymentProvider;
let store: PostgresEventStore;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = createRazorpaySandbox({ keyId, keySecret, pool: db.pool, basePath: '/razorpay-sandbox' });
  const app = express();
  app.use('/razorpay-sandbox', sandbox.router);
  sandboxUrl = `${(await servers.serve(app)).url}/razorpay-sandbox`;
  provider = createRazorpayProvider({ keyId, keySecret, apiUrl: sandboxUrl });
  store = new PostgresEventStore(db.pool, 'checkout');
});

afterAll(async () => {
  await sandbox?.close();
  await servers.closeAll();
  await db?.drop();
});

/**
 * An order opened for ₹999 whose hold lapsed, then paid in the sandbox: the late payment is recorded as a
 * refund due, and the refunding consumer queues it (its handle, in a transaction, as the bus runs it).
 */
async function latePayment(refunds: PendingRefunds): Promise<{ orderId: string; paymentId: string }> {
  const order = await provider.createOrder({ amountPaise: 99_900, currency: 'INR', receipt: 'rcpt_late' });
  const at = new Date().toISOString();
  await store.append(paymentStreamId(order.id), 0, [
    {
      type: 'PaymentOrderOpened',
      data: {
        razorpayOrderId: order.id,
        amountPaise: 99_900,
        receipt: 'rcpt_late',
        currency: 'INR',
        userId: null,
        createdAt: at,
        expiresAt: at,
      },
    },
    { type: 'PaymentOrderExpired', data: { razorpayOrderId: order.id, reservationId: '', expiredAt: at } },
  ]);
  const paymentId = (await sandboxPay(sandboxUrl, order.id)).razorpay_payment_id;
  await expect(recordPaid({ store, clock: () => new Date() }, order.id, paymentId, 'webhook')).rejects.toThrow(
    PaymentAfterExpiryError,
  );
  const consumer = refundingConsumer(refunds);
  const { rows } = await db.pool.query<{ type: string; data: unknown }>(
    `SELECT type, data FROM checkout.events WHERE stream_id = $1 AND type = 'RefundDue'`,
    [paymentStreamId(order.id)],
  );
  expect(rows).toHaveLength(1);
  const tx = await db.pool.connect();
  try {
    await tx.query('BEGIN');
    await consumer.handle(rows[0] as Parameters<typeof consumer.handle>[0], tx);
    await tx.query('COMMIT');
  } finally {
    tx.release();
  }
  return { orderId: order.id, paymentId };
}

const eventsOf = async (orderId: string) =>
  (
    await db.pool.query<{ type: PaymentEvent['type']; data: Record<string, unknown> }>(
      'SELECT type, data FROM checkout.events WHERE stream_id = $1 ORDER BY stream_version',
      [paymentStreamId(orderId)],
    )
  ).rows;

const pending = async (paymentId: string) =>
  (
    await db.pool.query<{ attempts: number; last_error: string | null }>(
      'SELECT attempts, last_error FROM checkout.pending_refunds WHERE razorpay_payment_id = $1',
      [paymentId],
    )
  ).rows;

const runner = (p: PaymentProvider, clock: () => Date = () => new Date(), log = logger) =>
  new PendingRefunds({ pool: db.pool, store, provider: p, clock, logger: log });

describe('pending refunds', () => {
  it('keeps a refund the provider could not take, retries it after a wait, and refunds once', async () => {
    const { server, port } = await listen(express(), 0, '127.0.0.1');
    await new Promise((r) => server.close(r));
    const down = createRazorpayProvider({ keyId, keySecret, apiUrl: `http://127.0.0.1:${port}` });
    const { orderId, paymentId } = await latePayment(runner(provider));
    let now = new Date();

    expect(await runner(down, () => now).run()).toBe(0);
    expect(await pending(paymentId)).toEqual([
      { attempts: 1, last_error: expect.stringContaining('Payment provider is unreachable') as string },
    ]);
    expect(await provider.fetchRefunds(paymentId)).toEqual([]);
    const retried = runner(provider, () => now);
    expect(await retried.run()).toBe(0); // not due yet: it waits before trying again
    now = new Date(now.getTime() + 1_500);
    expect(await retried.run()).toBe(1);

    const refunds = await provider.fetchRefunds(paymentId);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: 99_900, receipt: refundReceipt(paymentId), status: 'processed' }),
    ]);
    expect((await eventsOf(orderId)).map((e) => e.type)).toEqual([
      'PaymentOrderOpened',
      'PaymentOrderExpired',
      'RefundDue',
      'PaymentRefunded',
    ]);
    expect((await eventsOf(orderId))[3]!.data).toMatchObject({ refundId: refunds[0]!.id, amountPaise: 99_900 });
    expect(await pending(paymentId)).toEqual([]);
    expect((await provider.fetchPayments(orderId))[0]!.status).toBe('refunded');
  });

  it('a refund made by an attempt that died before recording it is recorded, not made again', async () => {
    const { orderId, paymentId } = await latePayment(runner(provider));
    // the earlier attempt: the provider refunded, then the process died before PaymentRefunded
    const made = await provider.refund(paymentId, 99_900, { receipt: refundReceipt(paymentId) });
    expect(await runner(provider).run()).toBe(1);
    expect((await provider.fetchRefunds(paymentId)).map((r) => r.id)).toEqual([made.id]);
    const refunded = (await eventsOf(orderId)).filter((e) => e.type === 'PaymentRefunded');
    expect(refunded).toEqual([expect.objectContaining({ data: expect.objectContaining({ refundId: made.id }) })]);
  });

  it('two runners at once (two checkout processes) issue one refund', async () => {
    const { orderId, paymentId } = await latePayment(runner(provider));
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const done = await Promise.all([1, 2, 3].map(() => runner(provider, undefined, log).run()));
    expect(done.reduce((a, b) => a + b, 0)).toBe(1);
    // each claimed it or left it alone: none went to the provider and was refused an over-refund
    expect(warnings).toEqual([]);
    expect(await provider.fetchRefunds(paymentId)).toHaveLength(1);
    expect((await eventsOf(orderId)).filter((e) => e.type === 'PaymentRefunded')).toHaveLength(1);
  });
});
