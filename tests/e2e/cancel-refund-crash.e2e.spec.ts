import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { httpClient, type HttpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { buyAs, registerShopper } from '../security/shoppers.ts';
import { crash, embeddedDatabaseUrl, useShopDataDir, waitHealthy } from './support/shop-process.ts';
import { DEFAULT_ADMIN, openSale, saleProduct } from './support/sale.ts';

/**
 * Issue 26: a cancelled order's payment is refunded through the provider exactly once, even when the shop is
 * killed (kill -9 of its node process) between the cancel and the refund's recording. The provider's side is
 * held with table locks so the crash lands at the worst moment: the sandbox has made the refund, and the dying
 * process has not recorded it (its PaymentRefunded append waits on the lock). The shop starts again; once the
 * dead runner's lease lapses, the refund is found at the provider by its receipt and recorded, not made again.
 * Stock is back, and the order shows Refunded with the provider's refund.
 */
const shops = useShopDataDir('shop-cancel-crash-');
const STOCK = 5;

interface OrderView {
  orderNumber: string;
  deliveryStatus: string;
  paymentStatus: string;
  totalAmount: number;
  refund: { amount: number; reference: string | null; status: string } | null;
}

async function connect(): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: embeddedDatabaseUrl(shops.pgDir) });
  // The server is stopped under it (the watchdog's fast shutdown after the crash): that is expected.
  db.on('error', () => undefined);
  await db.connect();
  return db;
}

/** Whether some backend other than `db`'s waits for a lock on `table`. */
async function waitsOn(db: pg.Client, table: string): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = $1::regclass AND pid <> pg_backend_pid()`,
    [table],
  );
  return rows[0]!.n > 0;
}

describe('kill -9 between a cancel and its refund', () => {
  it('refunds the payment once, records it after the restart, and returns the stock', async () => {
    let shop = await shops.spawn();
    await waitHealthy(shop);
    let api: HttpClient = httpClient(shop.base);
    const { productId } = await openSale(api, DEFAULT_ADMIN, saleProduct('Crash Cancel Kurta', STOCK));
    const asha = await registerShopper({ api }, 'Asha Rao', 'asha.crash@example.in');
    const bought = await buyAs({ api, url: shop.base }, asha, productId);
    const paymentId = bought.payment.razorpay_payment_id;

    const provider = await connect();
    const ledger = await connect();
    // The provider cannot take the refund yet: the cancel commits, the refund call waits at the provider.
    await provider.query('BEGIN');
    await provider.query('LOCK TABLE razorpay_sandbox.refunds IN EXCLUSIVE MODE');
    const cancel = await api<OrderView>('POST', `/api/orders/${bought.orderNumber}/cancel`, {
      token: asha.token,
      headers: asha.from,
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).toMatchObject({ deliveryStatus: 'Cancelled', refund: { status: 'Pending' } });
    await waitUntil(() => waitsOn(ledger, 'razorpay_sandbox.refunds'), 'the refund call to reach the provider');

    // Then the provider makes the refund, and recording it (PaymentRefunded) waits.
    await ledger.query('BEGIN');
    await ledger.query('LOCK TABLE checkout.events IN EXCLUSIVE MODE');
    await provider.query('COMMIT');
    await waitUntil(
      async () =>
        (await provider.query('SELECT 1 FROM razorpay_sandbox.refunds WHERE payment_id = $1', [paymentId])).rowCount ===
          1 && (await waitsOn(provider, 'checkout.events')),
      'the provider to refund and the shop to wait to record it',
    );

    await crash(shop);
    // The lock is held until the watchdog's fast shutdown ends every session: the dead process's append of
    // PaymentRefunded is rolled back, never committed behind its back.
    await waitUntil(
      () => !fs.existsSync(path.join(shops.pgDir, 'postmaster.pid')),
      'the watchdog to stop the orphaned Postgres',
      30_000,
    );
    await provider.end().catch(() => undefined);
    await ledger.end().catch(() => undefined);

    shop = await shops.spawn();
    await waitHealthy(shop);
    api = httpClient(shop.base);
    const token = (await api<{ token: string }>('POST', '/api/auth/login', { body: DEFAULT_ADMIN })).body.token;
    // Refunded at the provider, its record rolled back with the dead process (the locks above held it back until
    // the crash). Whether the new process has already recorded it by now (the sandbox's refund webhook, or the
    // runner once the lease lapses) is a race, so it is not asserted here: the end state below is what matters.
    const after = await connect();
    try {
      expect(
        (await after.query('SELECT 1 FROM razorpay_sandbox.refunds WHERE payment_id = $1', [paymentId])).rowCount,
      ).toBe(1);
    } finally {
      await after.end();
    }
    const orderOf = async () =>
      (await api<OrderView[]>('GET', '/api/orders/admin/all', { token })).body.find(
        (o) => o.orderNumber === bought.orderNumber,
      );
    // The new process records it (at the latest once the dead runner's 120 s lease on the refund lapses).
    const refunded = await waitUntil(
      async () => {
        const o = await orderOf();
        return o?.paymentStatus === 'Refunded' ? o : null;
      },
      'the refund recorded on the order after the restart',
      240_000,
    );

    const db = await connect();
    try {
      const refunds = await db.query<{ id: string; amount: string }>(
        'SELECT id, amount FROM razorpay_sandbox.refunds WHERE payment_id = $1',
        [paymentId],
      );
      expect(refunds.rows).toHaveLength(1);
      expect(refunded).toMatchObject({
        deliveryStatus: 'Cancelled',
        refund: { amount: refunded.totalAmount, reference: refunds.rows[0]!.id, status: 'Refunded' },
      });
      expect(Number(refunds.rows[0]!.amount)).toBe(Math.round(refunded.totalAmount * 100));
      const events = await db.query<{ type: string; n: number }>(
        `SELECT type, count(*)::int AS n FROM checkout.events
          WHERE type IN ('RefundDue', 'PaymentRefunded') AND data->>'razorpayPaymentId' = $1 GROUP BY type ORDER BY type`,
        [paymentId],
      );
      expect(events.rows).toEqual([
        { type: 'PaymentRefunded', n: 1 },
        { type: 'RefundDue', n: 1 },
      ]);
    } finally {
      await db.end();
    }
    await waitUntil(
      async () => (await api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity === STOCK,
      'the stock back',
    );
  }, 420_000);
});
