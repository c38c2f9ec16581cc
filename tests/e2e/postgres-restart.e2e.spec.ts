import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../services/shared/src/db/embedded-postgres.ts';
import { clearPreviousServer } from '../../services/shared/src/db/postgres-process.ts';
import { freePort } from '../../services/shared/src/db/free-port.ts';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { attempt, type Outcome } from './support/graceful-stop.ts';
import {
  DEFAULT_ADMIN,
  expectEachOrderOnce,
  openSale,
  type OrderView,
  refundedProviderOrders,
  saleOrder,
  saleProduct,
} from './support/sale.ts';
import { spawnShop, stop, waitHealthy, type ShopProcess } from './support/shop-process.ts';
import { expectLedgerBalanced } from './support/stock-ledger.ts';

/**
 * Issue 13: the shop's Postgres server is restarted under load. The shop (one process) runs on a Postgres
 * server of this test's own (never the machine's shared one) while buyers buy through the payment sandbox
 * and readers read; the server is stopped (fast shutdown: sessions are ended), kept down a few seconds, and
 * started again on the same port and data. Health says 503 while it is down and 200 after; every request
 * gets an answer within its client timeout (during the outage a JSON 5xx); the pools reconnect and purchases
 * succeed again; every payment the sandbox took is an order exactly once (or a refund); no unit is oversold.
 */
const STOCK = 30;
const BUYERS_AT_ONCE = 4;
const READERS_AT_ONCE = 2;
const CLIENT_TIMEOUT_MS = 15_000;
/** Orders confirmed before the outage, and again after it, before the load stops. */
const CONFIRMED_PER_PHASE = 4;
const OUTAGE_MS = 4000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pg-restart-'));
const pgDir = path.join(dir, 'pg');
let postgres: EmbeddedPostgresHandle | undefined;
let shop: ShopProcess | undefined;

afterAll(async () => {
  await stop(shop);
  await postgres?.stop().catch(() => undefined);
  await clearPreviousServer(pgDir).catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Asked extends Outcome {
  what: string;
  phase: Phase;
}
type Phase = 'before' | 'down' | 'after';

describe('the Postgres server restarts under load (embedded mode on an external server)', () => {
  it('health 503 while it is down and 200 after; every request answered; pools reconnect; each paid order once; nothing oversold', async () => {
    const port = await freePort();
    postgres = await startEmbeddedPostgres({ dataDir: pgDir, database: 'shop', port });
    const databaseUrl = postgres.url;
    shop = spawnShop({
      port: await freePort(),
      dataDir: path.join(dir, 'data'),
      env: { DATABASE_URL: databaseUrl, RESERVATION_TTL_SECONDS: '20' },
    });
    const s = shop;
    await waitHealthy(s, 60_000).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}:\n${s.output.join('\n')}`, { cause: err });
    });
    const api = httpClient(s.base);
    const { token, productId } = await openSale(api, DEFAULT_ADMIN, saleProduct('Restart Kurta', STOCK));

    let phase: Phase = 'before';
    let loadOn = true;
    const asked: Asked[] = [];
    const confirmed: Record<Phase, number> = { before: 0, down: 0, after: 0 };
    /** Provider order ids the sandbox took a payment for, and the order number verify answered (if it did). */
    const paid = new Map<string, string | null>();
    const ask = async (what: string, url: string, init: RequestInit = {}) => {
      const o = await attempt(`${s.base}${url}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
        timeoutMs: CLIENT_TIMEOUT_MS,
      });
      const a = { ...o, what, phase };
      asked.push(a);
      return a;
    };
    let buyerNo = 0;
    const buyer = async () => {
      while (loadOn) {
        const n = buyerNo++;
        const from = { 'x-forwarded-for': `10.66.${(n >> 8) & 255}.${n & 255}` };
        const created = await ask('create-order', '/api/payment/create-order', {
          method: 'POST',
          headers: from,
          body: JSON.stringify(saleOrder(`restart_${n}`, n, productId)),
        });
        if (created.status !== 201) {
          if (created.status === 409) return; // sold out
          continue; // the next create-order is the next try: each waits for its answer
        }
        const orderId = (created.body as { id: string }).id;
        const payment = await ask('sandbox pay', `/razorpay-sandbox/v1/checkout/orders/${orderId}/pay`, {
          method: 'POST',
          body: '{}',
        });
        if (payment.status !== 200) continue;
        paid.set(orderId, null);
        const verified = await ask('verify', '/api/payment/verify', {
          method: 'POST',
          headers: from,
          body: JSON.stringify(payment.body),
        });
        const orderNumber = (verified.body as { orderNumber?: string | null } | undefined)?.orderNumber;
        if (verified.status === 200 && orderNumber) {
          paid.set(orderId, orderNumber);
          confirmed[verified.phase]++;
        }
      }
    };
    const reader = async () => {
      while (loadOn) {
        await ask('product', `/api/products/${productId}`);
        await ask('products', '/api/products');
        await ask('health', '/api/health');
      }
    };
    const load = Promise.all([
      ...Array.from({ length: BUYERS_AT_ONCE }, buyer),
      ...Array.from({ length: READERS_AT_ONCE }, reader),
    ]);

    /** For a failure message: what the requests got, by phase, request and status. */
    const tally = () => {
      const t = new Map<string, number>();
      for (const a of asked) {
        const k = `${a.phase} ${a.what} ${a.status}`;
        t.set(k, (t.get(k) ?? 0) + 1);
      }
      return `${JSON.stringify(Object.fromEntries(t))}; last output:\n${s.output.slice(-15).join('\n')}`;
    };
    try {
      await waitUntil(() => confirmed.before >= CONFIRMED_PER_PHASE, 'orders confirmed before the outage', 60_000);
      // The outage: fast shutdown ends every session; the server stays down OUTAGE_MS, health polled all along.
      await postgres.stop();
      postgres = undefined;
      phase = 'down';
      const downAt = Date.now();
      await waitUntil(
        () =>
          Date.now() - downAt >= OUTAGE_MS &&
          asked.filter((a) => a.phase === 'down' && a.what === 'health' && a.status === 503).length >= 3,
        'health to have answered 503 a few times while Postgres is down',
        60_000,
      );
      postgres = await startEmbeddedPostgres({ dataDir: pgDir, database: 'shop', port });
      expect(postgres.url).toBe(databaseUrl);
      phase = 'after';
      await waitUntil(() => confirmed.after >= CONFIRMED_PER_PHASE, 'orders confirmed after the restart', 90_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}; ${tally()}`, { cause: err });
    } finally {
      loadOn = false;
      await load;
    }

    const count = (f: (a: Asked) => boolean) => asked.filter(f).length;
    console.log(
      `[pg-restart] ${asked.length} requests (${count((a) => a.phase === 'down')} while down: ` +
        `${count((a) => a.phase === 'down' && a.status === 503)} x 503, ${count((a) => a.phase === 'down' && typeof a.status === 'number' && a.status >= 500 && a.status !== 503)} other 5xx); ` +
        `answers of 5xx: ${JSON.stringify([...new Set(asked.filter((a) => a.what !== 'health' && (a.status as number) >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`))].slice(0, 6))}; ` +
        `confirmed ${confirmed.before} before, ${confirmed.down} during, ${confirmed.after} after; ${paid.size} payments taken`,
    );

    // Every request got an answer in time, and every error answer is JSON with a message.
    const unanswered = asked.filter((a) => typeof a.status !== 'number');
    expect(unanswered, JSON.stringify(unanswered.slice(0, 5))).toEqual([]);
    for (const a of asked) {
      if ((a.status as number) < 400) continue;
      if (a.what === 'health') {
        // health's own answer: degraded, naming a dependency that is down (Postgres; or, caught while the server
        // shuts down with its pool's probe still answered, the event bus on it: 'the database system is shutting down')
        expect(a.status).toBe(503);
        expect(a.body, JSON.stringify(a)).toMatchObject({ status: 'degraded', service: 'shop' });
        expect(
          (a.body as { dependencies: Array<{ name: string; ok: boolean }> }).dependencies.filter((d) => !d.ok),
          JSON.stringify(a.body),
        ).not.toEqual([]);
      } else if (a.what === 'sandbox pay') {
        // the sandbox stands in for Razorpay, and answers in Razorpay's error shape
        const error = (a.body as { error?: { description?: unknown } } | undefined)?.error;
        expect(typeof error?.description, JSON.stringify(a)).toBe('string');
      } else expect(typeof (a.body as { message?: unknown } | undefined)?.message, JSON.stringify(a)).toBe('string');
    }
    // Health: 503 (degraded, postgres down) during the outage, 200 after.
    const health = asked.filter((a) => a.what === 'health');
    expect(health.some((a) => a.phase === 'down' && a.status === 503)).toBe(true);
    const postgresDown = (a: Asked) =>
      (a.body as { dependencies?: Array<{ name: string; ok: boolean }> } | undefined)?.dependencies?.some(
        (d) => d.name === 'postgres' && !d.ok,
      );
    expect(
      health.some((a) => a.phase === 'down' && postgresDown(a)),
      'a health answer naming Postgres down',
    ).toBe(true);
    expect(health.filter((a) => a.phase === 'after').at(-1)?.status).toBe(200);
    expect(s.child.exitCode, 'the shop process is still running').toBeNull();

    // Every payment the sandbox took is an order exactly once (or a refund the shop recorded).
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      let orders: OrderView[] = [];
      let missing: string[] = [];
      await waitUntil(
        async () => {
          await expectLedgerBalanced(db, productId, STOCK, 'while payments settle');
          orders = (await api<OrderView[]>('GET', '/api/orders/admin/all', { token })).body;
          const placed = new Set(orders.map((o) => o.razorpayOrderId));
          const refunds = await refundedProviderOrders(db);
          missing = [...paid.keys()].filter((id) => !placed.has(id) && !refunds.has(id));
          return missing.length === 0;
        },
        'every sandbox payment to be an order or a refund',
        90_000,
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}; still neither: ${missing.join(', ')}`, { cause: err });
      });
      // A payment whose verify answered an order number is that one order; the others may be refunds.
      expectEachOrderOnce(
        orders,
        [...paid]
          .filter(([, orderNumber]) => orderNumber)
          .map(([id, orderNumber]) => ({ id, orderNumber, who: 'a buyer' })),
      );
      // No unit oversold: the stock streams balance, and what they sold is what the orders hold, once the
      // settlements (carried out after the orders' commits, a failed one retried) have moved the orders' holds to
      // sold: an order placed just after the restart may not be settled yet when the last payment became an order.
      const soldInOrders = orders
        .flatMap((o) => o.items)
        .filter((i) => i.Product.id === productId)
        .reduce((sum, i) => sum + i.orderedQuantity, 0);
      let ledger = await expectLedgerBalanced(db, productId, STOCK, 'at the end');
      await waitUntil(
        async () => {
          ledger = await expectLedgerBalanced(db, productId, STOCK, 'while the orders settle');
          return ledger.sold === soldInOrders;
        },
        `the stock streams to have sold the ${soldInOrders} units the orders hold`,
        60_000,
      ).catch(async (err: unknown) => {
        const pending = await db.query('SELECT action, attempts, last_error FROM checkout.pending_settlements');
        throw new Error(
          `${(err as Error).message}; sold ${ledger.sold}, held ${ledger.held}; pending settlements ${JSON.stringify(pending.rows)}`,
          { cause: err },
        );
      });
      expect(ledger.sold).toBeLessThanOrEqual(STOCK);
    } finally {
      await db.end();
    }
  });
});
