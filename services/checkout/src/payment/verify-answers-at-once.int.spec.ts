import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { createProduct } from '@shop/test-support/fixtures';
import { httpClient, type HttpClient } from '@shop/test-support/http';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { startShop } from '@shop/test-support/test-shop';

type RunningShop = Awaited<ReturnType<typeof startShop>>;
import { accountClient, testConfig } from '@shop/test-support/test-host';
import { waitUntil } from '@shop/test-support/wait-until';

// Issue 24: verify answers from the command side as soon as PaymentVerified is recorded, with the order number
// recorded in it; the placement places the order under that number whenever it runs, even after a crash.

interface Verified {
  success: boolean;
  message: string;
  orderNumber: string | null;
  orderToken?: string;
}

let db: TestDatabase | undefined;
let dataDir = '';
const running: RunningShop[] = [];
let lock: pg.PoolClient | undefined;

const start = async () => {
  const shop = await startShop(testConfig(db!.url, dataDir), { host: '127.0.0.1', seed: false });
  running.push(shop);
  return { shop, api: httpClient(shop.url) };
};

afterEach(async () => {
  await lock?.query('ROLLBACK').catch(() => undefined);
  lock?.release();
  lock = undefined;
  for (const shop of running.splice(0)) await shop.close();
  await db?.drop();
  db = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Holds the placement back, as a lagging or stopped order service would: its insert waits on this lock. */
async function holdPlacement(): Promise<void> {
  lock = await db!.pool.connect();
  await lock.query('BEGIN');
  await lock.query('LOCK TABLE orders.payment_orders IN EXCLUSIVE MODE');
}

async function releasePlacement(): Promise<void> {
  await lock!.query('COMMIT');
  lock!.release();
  lock = undefined;
}

/** A guest's paid checkout of one unit of a fresh product: the provider's answer, for verify. */
async function paidCheckout(shop: RunningShop, api: HttpClient, buyer: number) {
  const admin = await accountClient(api).login();
  const productId = await createProduct(api, admin, {
    name: 'Verify Kurta',
    price: '999',
    quantity: '3',
    category: 'Men',
  });
  const created = await api<{ id: string }>('POST', '/api/payment/create-order', {
    headers: fromBuyer(buyer),
    body: guestOrder(`rcpt_${buyer}`, buyer, [{ productId, quantity: 1 }]),
  });
  expect(created.status).toBe(201);
  return { admin, payment: await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id) };
}

const confirmation = (api: HttpClient, token: string) =>
  api<{ orderNumber: string | null; razorpayOrderId?: string }>('POST', '/api/orders/confirmation', {
    body: { token },
  });

const ordersOfPayment = async (api: HttpClient, admin: string, razorpayOrderId: string) =>
  (
    await api<Array<{ orderNumber: string; razorpayOrderId: string }>>('GET', '/api/orders/admin/all', { token: admin })
  ).body.filter((o) => o.razorpayOrderId === razorpayOrderId);

describe('verify answers with the order number at once', () => {
  it('200 with the number while the placement is held back; the order then shows under that number, once', async () => {
    db = await createTestDatabase({ migrate: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
    const { shop, api } = await start();
    const { admin, payment } = await paidCheckout(shop, api, 1);
    await holdPlacement();

    const verified = await api<Verified>('POST', '/api/payment/verify', { headers: fromBuyer(1), body: payment });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, message: 'Payment verified successfully' });
    expect(verified.body.orderNumber).toMatch(/^ORD-\d+$/);
    // not placed yet: the confirmation page says it is being placed, the list does not have it
    expect((await confirmation(api, verified.body.orderToken!)).status).toBe(202);
    expect(await ordersOfPayment(api, admin, payment.razorpay_order_id)).toEqual([]);
    // a retried verify answers the same number
    const again = await api<Verified>('POST', '/api/payment/verify', { headers: fromBuyer(1), body: payment });
    expect(again.status).toBe(200);
    expect(again.body.orderNumber).toBe(verified.body.orderNumber);

    await releasePlacement();
    const shown = await waitUntil(async () => {
      const r = await confirmation(api, verified.body.orderToken!);
      return r.status === 200 ? r.body : null;
    }, 'the order to be placed');
    expect(shown.orderNumber).toBe(verified.body.orderNumber);
    expect((await ordersOfPayment(api, admin, payment.razorpay_order_id)).map((o) => o.orderNumber)).toEqual([
      verified.body.orderNumber,
    ]);
  });

  it('a crash after the payment is recorded and before the placement still places exactly that order', async () => {
    db = await createTestDatabase({ migrate: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
    const first = await start();
    const { admin, payment } = await paidCheckout(first.shop, first.api, 2);
    await holdPlacement();
    const verified = await first.api<Verified>('POST', '/api/payment/verify', {
      headers: fromBuyer(2),
      body: payment,
    });
    expect(verified.status).toBe(200);
    const { orderNumber } = verified.body;
    expect(orderNumber).toMatch(/^ORD-\d+$/);

    // The process dies with the placement in flight: its transaction (and any retry of it) ends unfinished.
    const lockPid = (await lock!.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let closed = false;
    const closing = first.shop.close().then(() => (closed = true));
    // Every backend that waits on the held lock is cut off until the shop has closed.
    const { pool } = db;
    await waitUntil(
      async () => {
        await pool.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
          [lockPid],
        );
        return closed;
      },
      'the shop to close with its placement cut off',
      30_000,
    );
    await closing;
    running.splice(running.indexOf(first.shop), 1);
    expect(
      (
        await db.pool.query(`SELECT count(*)::int AS n FROM orders.payment_orders WHERE razorpay_order_id = $1`, [
          payment.razorpay_order_id,
        ])
      ).rows[0].n,
    ).toBe(0);
    await releasePlacement();

    // Started again on the same database: the placement places the order under the number verify answered.
    const second = await start();
    const shown = await waitUntil(async () => {
      const r = await confirmation(second.api, verified.body.orderToken!);
      return r.status === 200 ? r.body : null;
    }, 'the order to be placed after the restart');
    expect(shown.orderNumber).toBe(orderNumber);
    const adminAgain = await accountClient(second.api).login();
    expect(
      (await ordersOfPayment(second.api, adminAgain, payment.razorpay_order_id)).map((o) => o.orderNumber),
    ).toEqual([orderNumber]);
    expect(admin).toBeTruthy();
  });
});
