import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogService } from '@shop/catalog';
import { loadConfig } from '@shop/shared/config/config';
import { listen, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { closeServer } from '@shop/test-support/loopback-servers';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { createProductAndWait } from '../../../catalog/src/testing/catalog-test-host.ts';
import { Coupons } from '../coupons/index.ts';
import { createCheckoutService } from '../index.ts';
import { createRazorpayProvider } from '../payment-provider/razorpay-provider.ts';
import { createRazorpaySandbox, sandboxPay, type RazorpaySandbox } from '@shop/razorpay-sandbox';
import { REPORT_AFTER_FAILURES, retryDelayMs, sweepExpiredOrders, SWEEP_BATCH } from './expiry-sweep.ts';
import { SANDBOX_PATH } from '../payment/provider-settings.ts';

// Checkout and catalog hosted in this process on a fresh database, the real razorpay SDK against the
// sandbox over HTTP, and a clock the test moves: orders lapse when the test says so, and the expiry sweep
// runs when the test calls it (the scheduled job is not started), so each sweep's work can be counted.

const TTL_SECONDS = 600;

let db: TestDatabase;
let infra: Infrastructure;
let dataDir: string;
let server: Server;
let sandboxUrl: string;
let sandbox: RazorpaySandbox;
let checkout: ReturnType<typeof createCheckoutService>;
let catalog: ReturnType<typeof createCatalogService>;
let coupons: Coupons;
let stopModules: () => Promise<void>;
let skewMs = 0;
const clock = () => new Date(Date.now() + skewMs);

/** Provider calls for one order's payments that reached the sandbox, per order id (the sweep's one call). */
const paymentLookups = new Map<string, number>();
/** Orders whose payments lookups the sandbox answers with a 503, as Razorpay does when it is in trouble. */
const failing = new Set<string>();

function newSandbox(): RazorpaySandbox {
  return createRazorpaySandbox({
    keyId: checkout.settings.keyId,
    keySecret: checkout.settings.keySecret,
    pool: infra.pool,
    basePath: SANDBOX_PATH,
  });
}

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'expiry-sweep-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'expiry-sweep-test-secret',
    RESERVATION_TTL_SECONDS: String(TTL_SECONDS),
  });
  infra = await createInfrastructure(config, 'expiry-sweep-test');
  const ctx = { ...infra.context, clock };

  const host = express();
  host.use(`${SANDBOX_PATH}/v1/orders/:id/payments`, (req, res, next) => {
    const id = req.params.id;
    paymentLookups.set(id, (paymentLookups.get(id) ?? 0) + 1);
    if (!failing.has(id)) return next();
    res.status(503).json({
      error: {
        code: 'SERVER_ERROR',
        description: 'We are facing some trouble completing your request at the moment. Please try again shortly.',
        source: 'NA',
        step: 'NA',
        reason: 'NA',
        metadata: {},
      },
    });
  });
  // The sandbox in service now; a restart swaps in a new one.
  host.use(SANDBOX_PATH, (req, res, next) => sandbox.router(req, res, next));
  const listening = await listen(host, 0, '127.0.0.1');
  server = listening.server;
  const hostUrl = `http://127.0.0.1:${listening.port}`;
  sandboxUrl = `${hostUrl}${SANDBOX_PATH}`;

  catalog = createCatalogService(ctx, { seed: false });
  checkout = createCheckoutService(ctx, {
    inventory: catalog.inventory,
    gatewayUrl: hostUrl,
    waitForOrder: async () => null,
    allocateOrderNumbers: async () => [],
  });
  sandbox = newSandbox();
  coupons = new Coupons(ctx.eventStore('checkout'), clock);
  // Everything but checkout.start(), which would schedule the sweep on its own.
  const running = await startModules(infra, [catalog, { ...checkout, start: undefined }], []);
  stopModules = running.stop;
});

afterAll(async () => {
  await stopModules?.();
  await sandbox?.close();
  if (server) await closeServer(server);
  await infra?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  count?: number;
  razorpayOrderId?: string;
  razorpayOrderIds?: string[];
}

/** One sweep, as the scheduled job runs it, with what it logged (debug and up). */
async function sweep() {
  const logs: LogLine[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as LogLine);
        done();
      },
    }),
  );
  const lookupsBefore = new Map(paymentLookups);
  const result = await sweepExpiredOrders({ pool: infra.pool, payments: checkout.payments, clock, logger });
  const lookedUp = [...paymentLookups].filter(([id, n]) => n > (lookupsBefore.get(id) ?? 0)).map(([id]) => id);
  const warnings = logs.filter((l) => l.level >= 40);
  return { result, logs, warnings, lookedUp };
}

let productSeq = 0;
// Checkout prices from the products read model: wait until it has the product, as the API does.
const newProduct = (quantity: number): Promise<string> =>
  createProductAndWait(
    catalog,
    infra.context,
    { name: `Sweep Kurta ${++productSeq}`, pricePaise: 99_900 },
    { quantity, sizeQuantities: [] },
  );

let buyerSeq = 0;
/** A checkout of one unit, as create-order makes it (stock held, provider order created, event appended). */
async function checkoutOne(productId: string, couponCode: string | null = null): Promise<string> {
  const buyer = ++buyerSeq;
  const request = {
    lines: [{ productId, size: null, color: null, quantity: 1 }],
    customer: { userId: `sweep-buyer-${buyer}`, name: `Buyer ${buyer}`, email: `b${buyer}@example.in`, phone: '' },
    address: '12 MG Road, Bengaluru',
    pincode: '560001',
    couponCode,
    receipt: `rcpt_sweep_${buyer}`,
    buyerKey: `user:sweep-buyer-${buyer}`,
    clientAddressKey: `ip:198.51.100.${buyer % 250}`,
  };
  return (await checkout.payments.createOrder(request)).id;
}

async function checkoutMany(productId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 25) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => checkoutOne(productId)))));
  }
  return ids;
}

const statusOf = async (ids: string[]) => {
  const { rows } = await infra.pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM checkout.payment_orders WHERE razorpay_order_id = ANY($1) GROUP BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
};
/** Waits until the payment orders read model (what the sweep reads) shows all of `ids` in `status`. */
const allIn = (ids: string[], status: string) =>
  waitUntil(async () => (await statusOf(ids))[status] === ids.length, `${ids.length} orders ${status}`);

const eventsOf = async (type: string, ids: string[]) => {
  const { rows } = await infra.pool.query<{ stream_id: string; data: Record<string, unknown> }>(
    `SELECT stream_id, data FROM checkout.events WHERE type = $1 AND stream_id = ANY($2) ORDER BY global_position`,
    [type, ids.map((id) => `payment-${id}`)],
  );
  return rows;
};

const stockReleases = async (productId: string) => {
  const { rows } = await infra.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockReleased'`,
    [`stock-${productId}`],
  );
  return rows[0]!.n;
};

const openOrders = async () =>
  (
    await infra.pool.query<{ id: string }>(
      `SELECT razorpay_order_id AS id FROM checkout.payment_orders WHERE status = 'created'`,
    )
  ).rows.map((r) => r.id);

/** Moves the clock to just past the hold of every order created so far. */
const lapseHolds = () => {
  skewMs += TTL_SECONDS * 1000 + 1000;
};

describe('razorpay sandbox restart', () => {
  it('a sandbox restarted on the same database still knows its orders and payments, so the expiry sweep records a paid order as paid', async () => {
    const productId = await newProduct(5);
    const paidOrder = await checkoutOne(productId);
    const unpaidOrder = await checkoutOne(productId);
    const paid = await sandboxPay(sandboxUrl, paidOrder);

    // Restart: a new sandbox on the same database (the old one kept its state only in the database).
    await sandbox.close();
    sandbox = newSandbox();

    const provider = createRazorpayProvider({
      keyId: checkout.settings.keyId,
      keySecret: checkout.settings.keySecret,
      apiUrl: sandboxUrl,
    });
    expect(await provider.fetchOrder(paidOrder)).toMatchObject({ id: paidOrder, status: 'paid', amount_due: 0 });
    expect(await provider.fetchPayments(paidOrder)).toEqual([
      expect.objectContaining({ id: paid.razorpay_payment_id, order_id: paidOrder, status: 'captured' }),
    ]);
    expect(await provider.fetchOrder(unpaidOrder)).toMatchObject({ id: unpaidOrder, status: 'created' });
    expect(await provider.fetchPayments(unpaidOrder)).toEqual([]);
    // And it still refuses to take a second payment for the paid order.
    await expect(sandboxPay(sandboxUrl, paidOrder)).rejects.toThrow('Order has already been paid');

    // The shopper never came back to verify and no webhook was sent: the sweep asks the provider.
    await allIn([paidOrder, unpaidOrder], 'created');
    lapseHolds();
    const { result, warnings } = await sweep();
    expect(result).toMatchObject({ paid: 1, expired: 1, expiredUnknown: 0, failed: 0 });
    expect(warnings).toEqual([]);
    const verified = await eventsOf('PaymentVerified', [paidOrder]);
    expect(verified.map((e) => e.data)).toEqual([
      expect.objectContaining({ razorpayPaymentId: paid.razorpay_payment_id, via: 'reconciliation' }),
    ]);
    expect(await eventsOf('PaymentOrderExpired', [paidOrder])).toEqual([]);
    expect(await eventsOf('PaymentOrderExpired', [unpaidOrder])).toHaveLength(1);
  });
});

describe('expiry sweep', () => {
  it('expiry sweep: an order the provider does not know is expired, not retried forever, and does not starve newer orders', async () => {
    const productId = await newProduct(1000);
    await coupons.create({
      code: 'SWEEPONCE',
      discount: { type: 'fixed', amountPaise: 10_000 },
      minOrderPaise: 0,
      usageLimit: 1,
      validFrom: null,
      validUntil: null,
      description: '',
      isActive: true,
    });
    const other = await newProduct(100);
    // More unpaid orders than one sweep takes, the oldest holding the coupon's only use...
    const lost = [await checkoutOne(productId, 'SWEEPONCE'), ...(await checkoutMany(productId, SWEEP_BATCH + 7))];
    await expect(checkoutOne(other, 'SWEEPONCE')).rejects.toThrow(/limit/i);
    // ...that the provider then loses (what a restart did to the in-memory sandbox).
    await infra.pool.query('DELETE FROM razorpay_sandbox.orders WHERE id = ANY($1)', [lost]);
    // A newer checkout, made after that, behind all of them in the queue.
    skewMs += 1000;
    const newer = await checkoutOne(productId);
    await allIn([...lost, newer], 'created');
    lapseHolds();

    // First sweep: a full batch of orders the provider does not know, all expired; one info line, no warnings.
    const first = await sweep();
    expect(first.result).toEqual({ paid: 0, expired: 0, expiredUnknown: SWEEP_BATCH, unchanged: 0, failed: 0 });
    expect(first.warnings).toEqual([]);
    expect(first.logs.filter((l) => l.level === 30)).toEqual([
      expect.objectContaining({ count: SWEEP_BATCH, msg: expect.stringMatching(/no record of these orders/) }),
    ]);
    await allIn(first.lookedUp, 'expired');

    // Second sweep: the rest of them, and the newer order behind them is settled too.
    const second = await sweep();
    expect(second.result).toEqual({
      paid: 0,
      expired: 1,
      expiredUnknown: lost.length - SWEEP_BATCH,
      unchanged: 0,
      failed: 0,
    });
    expect(second.warnings).toEqual([]);
    expect(second.lookedUp).toContain(newer);
    expect(await eventsOf('PaymentOrderExpired', [newer])).toHaveLength(1);
    await allIn([...lost, newer], 'expired');

    // Each lost order expired once, its stock and coupon use given back.
    expect(await eventsOf('PaymentOrderExpired', lost)).toHaveLength(lost.length);
    await waitUntil(async () => (await stockReleases(productId)) === lost.length + 1, 'every hold released');
    await waitUntil(
      async () =>
        checkoutOne(other, 'SWEEPONCE').then(
          () => true,
          () => false,
        ),
      "the coupon's use back",
    );

    // Third sweep: nothing left to do for them: no provider call, no log line.
    const third = await sweep();
    expect(third.lookedUp.filter((id) => lost.includes(id) || id === newer)).toEqual([]);
    expect(third.logs.filter((l) => l.razorpayOrderIds?.some((id) => lost.includes(id)))).toEqual([]);
    expect(third.warnings).toEqual([]);
  }, 120_000);

  it('expiry sweep: orders the provider keeps failing on back off, are reported once, and do not starve a newer order', async () => {
    // Earlier tests' open orders out of the way first.
    await waitUntil(async () => {
      const { rows } = await infra.pool.query<{ made: number; seen: number }>(
        `SELECT (SELECT count(*)::int FROM checkout.events WHERE type = 'PaymentOrderCreated') AS made,
                (SELECT count(*)::int FROM checkout.payment_orders) AS seen`,
      );
      return rows[0]!.made === rows[0]!.seen;
    }, 'every order so far in the read model');
    lapseHolds();
    await sweep();
    await waitUntil(async () => (await openOrders()).length === 0, 'no open orders left');

    const productId = await newProduct(1000);
    const troubled = await checkoutMany(productId, SWEEP_BATCH + 1);
    for (const id of troubled) failing.add(id);
    skewMs += 1000;
    const newer = await checkoutOne(productId);
    await allIn([...troubled, newer], 'created');
    lapseHolds();

    // A full batch fails: one warning for the sweep, not one per order; the orders stay open.
    const first = await sweep();
    expect(first.result).toMatchObject({ failed: SWEEP_BATCH, expired: 0 });
    expect(first.warnings).toEqual([
      expect.objectContaining({ level: 40, count: SWEEP_BATCH, msg: expect.stringMatching(/could not settle/) }),
    ]);

    // The next sweep does not start again with them: the troubled one left over and the newer order get their turn.
    const leftOver = troubled.filter((id) => !first.lookedUp.includes(id));
    expect(leftOver).toHaveLength(1);
    const second = await sweep();
    expect(second.lookedUp.sort()).toEqual([...leftOver, newer].sort());
    expect(second.result).toMatchObject({ expired: 1, failed: 1 });
    await allIn([newer], 'expired');
    expect(await statusOf(troubled)).toEqual({ created: troubled.length });

    // Until their next try is due, sweeps leave them alone and say nothing.
    const idle = await sweep();
    expect(idle.lookedUp).toEqual([]);
    expect(idle.logs).toEqual([]);

    // They are tried again, with a growing delay; at the REPORT_AFTER_FAILURES-th failure, one error line.
    const errors: LogLine[] = [];
    for (let attempt = 2; attempt <= REPORT_AFTER_FAILURES + 1; attempt++) {
      skewMs += retryDelayMs(attempt - 1) + 1000;
      for (;;) {
        const s = await sweep();
        errors.push(...s.logs.filter((l) => l.level >= 50));
        if (s.lookedUp.length === 0) break;
        expect(s.warnings.filter((l) => l.level === 40)).toHaveLength(attempt < REPORT_AFTER_FAILURES ? 1 : 0);
      }
    }
    // One line per sweep that saw orders reach that count (the batch splits them into two sweeps).
    expect(errors.length).toBeLessThanOrEqual(2);
    for (const e of errors) expect(e.msg).toMatch(/keeps failing/);
    expect(errors.reduce((n, e) => n + (e.count ?? 0), 0)).toBe(troubled.length);
    const { rows } = await infra.pool.query<{ attempts: number }>(
      'SELECT attempts FROM checkout.expiry_sweep_failures WHERE razorpay_order_id = ANY($1)',
      [troubled],
    );
    expect(rows.map((r) => r.attempts)).toEqual(troubled.map(() => REPORT_AFTER_FAILURES + 1));

    // The provider recovers: at their next turn they are settled and their bookkeeping goes.
    failing.clear();
    skewMs += retryDelayMs(REPORT_AFTER_FAILURES + 1) + 1000;
    const settled = { expired: 0, failed: 0 };
    for (;;) {
      const s = await sweep();
      if (s.lookedUp.length === 0) break;
      settled.expired += s.result.expired;
      settled.failed += s.result.failed;
      await allIn(s.lookedUp, 'expired');
    }
    expect(settled).toEqual({ expired: troubled.length, failed: 0 });
    const left = await infra.pool.query(
      'SELECT 1 FROM checkout.expiry_sweep_failures WHERE razorpay_order_id = ANY($1)',
      [troubled],
    );
    expect(left.rowCount).toBe(0);
  }, 120_000);
});
