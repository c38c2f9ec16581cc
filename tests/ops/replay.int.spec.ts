import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableChecksums } from '../../services/shared/src/replay/projection-replay.ts';
import { PROJECTIONS } from '../../scripts/replay.ts';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { runScript } from './run-script.ts';

const TABLES = [...PROJECTIONS.values()].flatMap((p) => p.tables);
const SCHEMAS = ['accounts', 'catalog', 'checkout', 'orders'];

let shop: TestShop;
let admin: string;
let env: Record<string, string>;
let commands = 0;

async function ok<T>(r: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const a = await r;
  if (a.status >= 300) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  commands += 1;
  return a.body;
}

/** Every consumer's checkpoint is at its source log's last event (nothing left to project). */
async function caughtUp(): Promise<boolean> {
  for (const source of SCHEMAS) {
    for (const schema of SCHEMAS) {
      const { rows } = await shop.db.pool.query<{ behind: number }>(
        `SELECT count(*)::int AS behind FROM ${schema}.checkpoints
          WHERE source = $1 AND global_position < (SELECT coalesce(max(global_position), 0) FROM ${source}.events)`,
        [source],
      );
      if (rows[0]!.behind > 0) return false;
    }
  }
  return true;
}

const heads = async () => {
  const out: Record<string, string> = {};
  for (const s of SCHEMAS)
    out[s] = (
      await shop.db.pool.query(`SELECT coalesce(max(global_position), 0)::text AS p FROM ${s}.events`)
    ).rows[0].p;
  return out;
};

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  env = { DATABASE_URL: shop.db.url };

  // A few hundred commands through the API: catalog, accounts, addresses, testimonials, collections, sales.
  const products: string[] = [];
  for (let i = 0; i < 16; i++) {
    const form = new FormData();
    const fields: Record<string, string> = { name: `Kurta ${i}`, price: String(500 + i * 25), category: 'Men' };
    if (i % 3 === 0) Object.assign(fields, { quantity: '0', sizeQuantities: JSON.stringify({ S: 5, M: 6, L: 4 }) });
    else fields.quantity = '40';
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    products.push((await ok(shop.api<{ id: string }>('POST', '/api/products', { token: admin, form }), 'product')).id);
  }
  for (const [i, id] of products.entries()) {
    if (i % 2 === 0)
      await ok(shop.api('PUT', `/api/products/${id}`, { token: admin, body: { price: 700 + i } }), 'price');
    if (i % 5 === 4)
      await ok(shop.api('PUT', `/api/products/${id}/delist`, { token: admin, body: { isDelisted: true } }), 'delist');
  }
  const collection = await ok(
    shop.api<{ id: string }>('POST', '/api/collections', { token: admin, body: { name: 'Festive' } }),
    'collection',
  );
  for (const id of products.slice(0, 6))
    await ok(
      shop.api('POST', `/api/collections/${collection.id}/products`, { token: admin, body: { productId: id } }),
      'add',
    );
  const shoppers: string[] = [];
  for (let i = 0; i < 24; i++) {
    const r = await ok(
      shop.api<{ token: string }>('POST', '/api/auth/register', {
        body: { name: `Shopper ${i}`, email: `shopper${i}@replay.test`, phone: '+919800000000', password: 'secret1' },
      }),
      'register',
    );
    shoppers.push(r.token);
    await ok(
      shop.api('POST', '/api/addresses', {
        token: r.token,
        body: { label: 'Home', name: `Shopper ${i}`, phone: '+919800000000', addressLine1: `${i} MG Road` },
      }),
      'address',
    );
    if (i % 2 === 0) {
      const t = await ok(
        shop.api<{ testimonial: { id: string } }>('POST', '/api/testimonials', {
          token: r.token,
          body: { rating: 1 + (i % 5), text: `Lovely fabric ${i}` },
        }),
        'testimonial',
      );
      if (i % 4 === 0)
        await ok(
          shop.api('PUT', `/api/testimonials/admin/${t.testimonial.id}`, {
            token: admin,
            body: { status: 'approved' },
          }),
          'moderate',
        );
    }
  }
  const list = async () =>
    (
      await shop.api<
        { orderNumber: string; deliveryStatus: string; shiprocketAWB: string | null; shiprocketStatus: string | null }[]
      >('GET', '/api/orders/admin/all', { token: admin })
    ).body;
  const sellable = products.filter((_, i) => i % 5 !== 4 && i % 3 !== 0);
  for (let i = 0; i < 30; i++) {
    const orderNumber = await buyThroughSandbox(shop, 100 + i, [
      { productId: sellable[i % sellable.length]!, quantity: 1 + (i % 2) },
    ]);
    commands += 3;
    // Shipped first (an order moved on by hand before its shipment is made is not shipped).
    await waitUntil(
      async () => (await list()).find((o) => o.orderNumber === orderNumber)?.shiprocketAWB,
      'the shipment',
    );
    const statuses = ['Out for Delivery', 'Delivered'].slice(0, i % 3);
    for (const deliveryStatus of statuses)
      await ok(
        shop.api('PATCH', `/api/orders/admin/${orderNumber}/status`, { token: admin, body: { deliveryStatus } }),
        'status',
      );
    if (i % 4 === 0) await ok(shop.api('PATCH', `/api/orders/admin/${orderNumber}/seen`, { token: admin }), 'seen');
    // Some are cancelled (not delivered ones): OrderCancelled, the stock and refund it sets off, OrderRefunded.
    if (i % 5 === 1 && i % 3 !== 2)
      await ok(
        shop.api('PATCH', `/api/orders/admin/${orderNumber}/cancel`, { token: admin, body: { reason: `Reason ${i}` } }),
        'cancel',
      );
  }
  // Every order gets its shipment (the built-in Shiprocket sandbox) unless it was cancelled before; some parcels
  // move on by tracking webhooks, one comes back (return to origin).
  const shipped = await waitUntil(
    async () => {
      const orders = await list();
      return orders.length === 30 && orders.every((o) => o.shiprocketAWB || o.deliveryStatus === 'Cancelled')
        ? orders.filter((o) => o.shiprocketAWB)
        : null;
    },
    'every order to be shipped',
    60_000,
  );
  const moves: Array<[string, unknown]> = [];
  for (const [i, o] of shipped.slice(0, 6).entries())
    for (let step = 0; step <= i % 3; step++) moves.push([o.shiprocketAWB!, {}]);
  moves.push([shipped[6]!.shiprocketAWB!, { status: 'RTO INITIATED' }]);
  for (const [awb, body] of moves)
    await ok(shop.api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`, { body }), 'advance');
  await waitUntil(
    async () =>
      (await list()).find((o) => o.shiprocketAWB === shipped[6]!.shiprocketAWB)?.shiprocketStatus === 'RTO INITIATED',
    'the tracking webhooks',
  );
  await waitUntil(
    async () =>
      Number(
        (await shop.db.pool.query(`SELECT count(*) AS n FROM orders.events WHERE type = 'ShippingStatusUpdated'`))
          .rows[0].n,
      ) === moves.length,
    'every tracking webhook to be recorded',
  );
  // The cancellations' stock returns and refunds are carried out after their commits: wait for them too.
  await waitUntil(
    async () =>
      (
        await shop.db.pool.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM checkout.pending_refunds) + (SELECT count(*) FROM checkout.pending_settlements)
                  + (SELECT count(*) FROM orders.orders WHERE refund_status = 'Pending'))::int AS n`,
        )
      ).rows[0]!.n === 0,
    'the cancelled orders refunded',
    30_000,
  );
  await waitUntil(caughtUp, 'every consumer to catch up', 30_000);
}, 300_000);
afterAll(() => shop?.stop());

describe('npm run replay', () => {
  it('rebuilds every projection from the log to the same checksums, and the shop carries on', async () => {
    expect(commands).toBeGreaterThanOrEqual(200);
    const before = await tableChecksums(shop.db.pool, TABLES);
    const headsBefore = await heads();
    expect(Number(before['orders.orders']!.split(':')[0])).toBe(30);
    const { rows: cancelled } = await shop.db.pool.query(
      `SELECT order_number FROM orders.orders WHERE delivery_status = 'Cancelled' AND payment_status = 'Refunded'`,
    );
    expect(cancelled).toHaveLength(4);

    const replay = await runScript('replay', ['--all'], env);
    expect(replay.code, replay.stderr + replay.stdout).toBe(0);
    for (const name of PROJECTIONS.keys()) expect(replay.stdout).toContain(`${name}: `);
    for (const [table, sum] of Object.entries(before))
      expect(replay.stdout).toMatch(new RegExp(`  ${table.replace('.', '\\.')}: [\\d,]+ rows, checksum ${sum}\\n`));
    expect(replay.stderr).toMatch(/replay: done {2}[\d,]+\/[\d,]+ events/); // not a terminal: progress lines
    expect(await heads()).toEqual(headsBefore); // nothing new was projected meanwhile
    expect(await tableChecksums(shop.db.pool, TABLES)).toEqual(before);

    // The live consumers carry on from the swap point: a new user is projected once and can log in.
    await ok(
      shop.api('POST', '/api/auth/register', {
        body: { name: 'After Replay', email: 'after@replay.test', phone: '+919800000000', password: 'secret1' },
      }),
      'register',
    );
    expect(
      (await shop.api('POST', '/api/auth/login', { body: { email: 'after@replay.test', password: 'secret1' } })).status,
    ).toBe(200);
    await waitUntil(caughtUp, 'every consumer to catch up again', 30_000);
    const verified = await runScript('replay', ['--all', '--verify'], env);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    expect(verified.stdout).toContain('verify: every projection is identical to its rebuild');
  });

  it('--verify finds a deleted and an altered row, exits 1 and names them; a replay repairs them', async () => {
    await waitUntil(caughtUp, 'every consumer to catch up', 30_000);
    const { rows: products } = await shop.db.pool.query<{ id: string }>(
      'SELECT id FROM catalog.products ORDER BY id LIMIT 1',
    );
    const { rows: orders } = await shop.db.pool.query<{ order_number: string }>(
      'SELECT order_number FROM orders.orders ORDER BY order_number LIMIT 1',
    );
    const productId = products[0]!.id;
    const orderNumber = orders[0]!.order_number;
    await shop.db.pool.query('DELETE FROM catalog.products WHERE id = $1', [productId]);
    await shop.db.pool.query('UPDATE orders.orders SET total_paise = total_paise + 1 WHERE order_number = $1', [
      orderNumber,
    ]);

    const verified = await runScript('replay', ['--all', '--verify'], env);
    expect(verified.code, verified.stderr).toBe(1);
    expect(verified.stdout).toMatch(/MISMATCH catalog\.products catalog\.products: live [\d,]+ rows/);
    expect(verified.stdout).toContain(`missing from live: {"id" : "${productId}"}`);
    expect(verified.stdout).toContain(`MISMATCH orders.orders orders.orders:`);
    expect(verified.stdout).toContain(`differs: {"order_number" : "${orderNumber}"}`);
    expect(verified.stdout).toContain('catalog.stock_levels: identical');
    expect(verified.stdout).not.toContain('MISMATCH accounts');

    const repaired = await runScript('replay', ['catalog.products', 'orders.orders'], env);
    expect(repaired.code, repaired.stderr).toBe(0);
    const again = await runScript('replay', ['catalog.products', 'orders.orders', '--verify'], env);
    expect(again.code, again.stdout).toBe(0);
    const { rows } = await shop.db.pool.query('SELECT id FROM catalog.products WHERE id = $1', [productId]);
    expect(rows).toHaveLength(1);
    expect((await shop.api('GET', `/api/products/${productId}`)).status).toBe(200);
  });

  it('refuses unknown names and process managers (exit 2)', async () => {
    expect((await runScript('replay', ['catalog.nope'], env)).code).toBe(2);
    const pm = await runScript('replay', ['orders.placement'], env);
    expect(pm).toMatchObject({ code: 2 });
    expect(pm.stderr).toContain('orders.placement is a process manager');
    expect((await runScript('replay', [], env)).code).toBe(2);
  });
});
