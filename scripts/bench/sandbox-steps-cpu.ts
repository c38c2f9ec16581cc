/**
 * Shop CPU per create-order and per sandbox pay (with the two webhooks it sets off), embedded shop on ample
 * stock: the steps whose provider calls and webhooks the built-in Razorpay sandbox serves. The figures are
 * CPU of the shop's node processes (and its Postgres) from /proc, not wall time.
 *
 *   npx tsx scripts/bench/sandbox-steps-cpu.ts [--orders 300] [--concurrency 16] [--rounds 2]
 *
 * Prints figures; never fails on them.
 */
import pg from 'pg';
import { adminToken, machineLine, startShopUnderTest } from './shop-under-test.ts';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import { isPostgres, processesCpuSeconds } from './process-cpu.ts';

const arg = (name: string, dflt: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt;
const orders = Number(arg('orders', '300'));
const concurrency = Number(arg('concurrency', '16'));
const rounds = Number(arg('rounds', '2'));

const cpu = () => ({ shop: processesCpuSeconds(), postgres: processesCpuSeconds({ counted: isPostgres }) });
type Cpu = ReturnType<typeof cpu>;
const per = (from: Cpu, to: Cpu, n: number) => ({
  shop: Math.round(((to.shop - from.shop) / n) * 1e6),
  postgres: Math.round(((to.postgres - from.postgres) / n) * 1e6),
});

/** Runs `work` for 0..n-1, at most `concurrency` at a time. */
async function pooled(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

const shop = await startShopUnderTest('embedded', { RESERVATION_TTL_SECONDS: '900' });
const db = new pg.Pool({ connectionString: shop.databaseUrl, max: 2 });
try {
  const token = await adminToken(shop.base);
  const created = await fetch(`${shop.base}/api/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Bench Kurta', price: 999, quantity: 1_000_000, category: 'Men' }),
  });
  if (created.status !== 201) throw new Error(`create product: ${created.status} ${await created.text()}`);
  const productId = ((await created.json()) as { id: string }).id;

  console.log(`# sandbox steps: ${orders} orders x ${rounds} rounds at ${concurrency} concurrent (embedded)`);
  console.log(machineLine());
  console.log(
    '| round | create-order shop µs | create-order Postgres µs | pay+webhooks shop µs | pay+webhooks Postgres µs |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  let buyer = 0;
  for (let round = 1; round <= rounds; round++) {
    const ids: string[] = [];
    const c0 = cpu();
    await pooled(orders, async () => {
      const n = buyer++;
      const r = await fetch(`${shop.base}/api/payment/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fromBuyer(n) },
        body: JSON.stringify(guestOrder(`steps_${n}`, n, [{ productId, quantity: 1 }], { couponCode: null })),
      });
      if (r.status !== 201) throw new Error(`create-order ${r.status} ${await r.text()}`);
      ids.push(((await r.json()) as { id: string }).id);
    });
    const c1 = cpu();
    const { rows: before } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM checkout.webhook_events WHERE processed_at IS NOT NULL',
    );
    const p0 = cpu();
    await pooled(ids.length, async (i) => {
      await sandboxPay(`${shop.base}/razorpay-sandbox`, ids[i]!);
    });
    // The step ends when both webhooks of every payment are processed.
    for (;;) {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM checkout.webhook_events WHERE processed_at IS NOT NULL',
      );
      if (rows[0]!.n - before[0]!.n >= 2 * ids.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const p1 = cpu();
    const co = per(c0, c1, orders);
    const pay = per(p0, p1, ids.length);
    console.log(`| ${round} | ${co.shop} | ${co.postgres} | ${pay.shop} | ${pay.postgres} |`);
  }
} finally {
  await db.end();
  await shop.stop();
}
