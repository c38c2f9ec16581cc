/**
 * Flash-sale benchmark: N buyers (default 2,000) race through create-order + sandbox pay + verify over HTTP
 * for one product with S units (default 200). Then, with ample stock, sustained create-order reservations
 * on the hot product at 64 concurrent for D seconds, beside the reference: a plain conditional single-row
 * UPDATE loop at the same concurrency on the same Postgres.
 *
 *   npm run bench:flash-sale [-- --mode distributed] [--buyers 2000] [--stock 200] [--duration 10] [--db-activity]
 *
 * --db-activity also prints, for the race and for the sustained run, the transactions committed and the rows
 * each table was written, per order (scripts/bench/db-activity.ts).
 *
 * Prints figures; never fails on them (0 oversold is asserted by the test suite, not here).
 */
import pg from 'pg';
import { adminToken, machineLine, percentile, startShopUnderTest } from './bench/shop-under-test.ts';
import { sandboxPay } from '../services/razorpay-sandbox/src/sandbox-pay.ts';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import { DbActivityProbe, printDbActivity, type DbActivity } from './bench/db-activity.ts';
import { canMeasureCpu, isPostgres, processesCpuSeconds } from './bench/process-cpu.ts';

const arg = (name: string, dflt: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt;
const mode = arg('mode', 'embedded');
const buyers = Number(arg('buyers', '2000'));
const stock = Number(arg('stock', '200'));
const duration = Number(arg('duration', '10'));
const concurrency = 64;
const showDbActivity = process.argv.includes('--db-activity');

/** At a phase's start or end: CPU seconds so far of the shop's node processes and (embedded: its child) Postgres. */
interface Snapshot {
  cpu: { shop: number; postgres: number };
  db?: DbActivity;
}

const json = { 'content-type': 'application/json' };
let seq = 0;
/** One buyer's create-order, each buyer from an address of their own (fromBuyer), as a sale's shoppers come. */
const orderRequest = (productId: string) => {
  const n = seq++;
  const headers = { ...json, ...fromBuyer(n) };
  const body = JSON.stringify(guestOrder(`bench_${n}`, n, [{ productId, quantity: 1 }], { couponCode: null }));
  return { method: 'POST', headers, body };
};

async function createProduct(base: string, token: string, name: string, quantity: number): Promise<string> {
  const r = await fetch(`${base}/api/products`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name, price: 999, quantity, category: 'Men' }),
  });
  if (r.status !== 201) throw new Error(`create product: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { id: string }).id;
}

const shop = await startShopUnderTest(mode, { RESERVATION_TTL_SECONDS: '900' });
const db = new pg.Pool({ connectionString: shop.databaseUrl, max: 4 });
// The reference loop's own connections, closed before the race: held idle, they would take the shop's
// Postgres connections (max_connections) away from it during the race.
const ref = new pg.Pool({ connectionString: shop.databaseUrl, max: concurrency });
const probe = showDbActivity ? new DbActivityProbe(db) : undefined;
const snapshot = async (): Promise<Snapshot> => ({
  db: await probe?.read(),
  cpu: { shop: processesCpuSeconds(), postgres: processesCpuSeconds({ counted: isPostgres }) },
});
/** µs of CPU per unit between two snapshots. */
const cpuPer = (from: Snapshot, to: Snapshot, units: number, what: 'shop' | 'postgres') =>
  (((to.cpu[what] - from.cpu[what]) / Math.max(1, units)) * 1e6).toFixed(0);
try {
  const token = await adminToken(shop.base);

  // ---- 0. the reference first, while the shop is idle: its pools and these 64 connections together
  // would pass Postgres's default max_connections during the race ----
  await ref.query(
    `CREATE TABLE IF NOT EXISTS public.bench_reference_stock (id int PRIMARY KEY, available int NOT NULL)`,
  );
  await ref.query(
    `INSERT INTO public.bench_reference_stock VALUES (1, 10000000) ON CONFLICT (id) DO UPDATE SET available = 10000000`,
  );
  let refOk = 0;
  const refMs: number[] = [];
  const refUntil = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < refUntil) {
        const s = performance.now();
        const r = await ref.query(
          `UPDATE public.bench_reference_stock SET available = available - 1 WHERE id = 1 AND available > 0`,
        );
        refMs.push(performance.now() - s);
        if (r.rowCount === 1) refOk += 1;
      }
    }),
  );
  await ref.query(`DROP TABLE public.bench_reference_stock`);
  await ref.end();
  const refRate = refOk / duration;

  // ---- 1. the race: N buyers for S units ----
  const hot = await createProduct(shop.base, token, 'Flash Sale Kurta', stock);
  const raceStart = await snapshot();
  const createMs: number[] = [];
  const buyerMs: number[] = [];
  let placed = 0;
  let late = 0;
  let refused = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: buyers }, async () => {
      const start = performance.now();
      try {
        const request = orderRequest(hot);
        const r = await fetch(`${shop.base}/api/payment/create-order`, request);
        createMs.push(performance.now() - start);
        if (r.status === 409) {
          refused += 1;
          await r.arrayBuffer();
          return;
        }
        if (r.status !== 201) throw new Error(`create-order ${r.status} ${await r.text()}`);
        const order = (await r.json()) as { id: string };
        const paid = await sandboxPay(`${shop.base}/razorpay-sandbox`, order.id);
        const v = await fetch(`${shop.base}/api/payment/verify`, {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(paid),
        });
        if (!v.ok) throw new Error(`verify ${v.status} ${await v.text()}`);
        if (v.status === 202) late += 1;
        placed += 1;
      } catch (err) {
        errors += 1;
        if (errors <= 3) console.error(String(err), (err as { cause?: unknown }).cause ?? '');
      } finally {
        buyerMs.push(performance.now() - start);
      }
    }),
  );
  const raceSeconds = (performance.now() - t0) / 1000;
  // Sales are committed by the settlement consumer just after verify answers; wait for them to settle.
  let sold = 0;
  for (let i = 0; i < 100; i++) {
    const r = await db.query(
      `SELECT coalesce(sum((data->>'quantity')::int), 0)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockCommitted'`,
      [`stock-${hot}`],
    );
    sold = r.rows[0].n;
    if (sold >= placed) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  const finalStock = (await db.query(`SELECT quantity FROM catalog.products WHERE id = $1`, [hot])).rows[0]?.quantity;
  const ordersInList = (await db.query(`SELECT count(*)::int AS n FROM orders.orders`)).rows[0].n;
  const reservations = (
    await db.query(`SELECT count(*)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockReserved'`, [
      `stock-${hot}`,
    ])
  ).rows[0].n;

  // ---- 2. sustained reservations with ample stock, and the reference ----
  const raceEnd = await snapshot();
  const ample = await createProduct(shop.base, token, 'Ample Stock Tee', 1_000_000);
  const sustainedStart = await snapshot();
  const sustainedMs: number[] = [];
  let sustainedOk = 0;
  let sustainedErr = 0;
  const until = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const s = performance.now();
        const r = await fetch(`${shop.base}/api/payment/create-order`, orderRequest(ample));
        await r.arrayBuffer();
        sustainedMs.push(performance.now() - s);
        if (r.status === 201) sustainedOk += 1;
        else sustainedErr += 1;
      }
    }),
  );
  const sustainedRate = sustainedOk / duration;
  const sustainedEnd = await snapshot();

  const f = (n: number) => n.toFixed(1);
  console.log(
    `\nbench-flash-sale (${mode}): ${buyers} buyers, ${stock} units, create-order + sandbox pay + verify over HTTP`,
  );
  console.log(machineLine());
  console.log('| figure | value |');
  console.log('|---|---:|');
  console.log(`| orders placed (verify answered with an order) | ${placed} |`);
  console.log(`| of which verify answered 202 (order shown by push a moment later) | ${late} |`);
  console.log(`| orders in the admin projection | ${ordersInList} |`);
  console.log(`| units sold (StockCommitted) | ${sold} |`);
  console.log(`| final stock | ${finalStock} |`);
  console.log(`| oversold units | ${Math.max(0, sold - stock)} |`);
  console.log(`| buyers refused (409, told why) | ${refused} |`);
  console.log(`| errors | ${errors} |`);
  console.log(`| all ${buyers} buyers resolved in | ${raceSeconds.toFixed(2)} s |`);
  console.log(`| reservations during the race | ${reservations} (${f(reservations / raceSeconds)}/s) |`);
  console.log(`| create-order p50 / p99 | ${f(percentile(createMs, 50))} / ${f(percentile(createMs, 99))} ms |`);
  console.log(
    `| whole buyer (create+pay+verify) p50 / p99 | ${f(percentile(buyerMs, 50))} / ${f(percentile(buyerMs, 99))} ms |`,
  );
  if (canMeasureCpu()) {
    const used = (what: 'shop' | 'postgres') => cpuPer(raceStart, raceEnd, buyers, what);
    console.log(`| shop CPU per buyer in the race (node processes, user+system) | ${used('shop')} µs |`);
    // Distributed mode uses a Postgres the shop did not start: its CPU is not the shop's to count.
    if (mode === 'embedded') console.log(`| Postgres CPU per buyer in the race | ${used('postgres')} µs |`);
  }
  console.log(`\nsustained, ample stock, ${concurrency} concurrent, ${duration} s:`);
  console.log('| run | per second | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| create-order reservations on one hot product | ${f(sustainedRate)} | ${f(percentile(sustainedMs, 50))} | ${f(percentile(sustainedMs, 99))} | ${sustainedErr} |`,
  );
  console.log(
    `| reference: conditional single-row UPDATE loop | ${f(refRate)} | ${f(percentile(refMs, 50))} | ${f(percentile(refMs, 99))} | 0 |`,
  );
  if (canMeasureCpu()) {
    const used = (what: 'shop' | 'postgres') => cpuPer(sustainedStart, sustainedEnd, sustainedOk, what);
    const postgres = mode === 'embedded' ? `, Postgres CPU per reservation: ${used('postgres')} µs` : '';
    console.log(`shop CPU per reservation: ${used('shop')} µs${postgres}`);
  }
  console.log(
    `ratio: ${(sustainedRate / refRate).toFixed(2)}x the reference (target >= 2x), create-order p99 ${f(percentile(sustainedMs, 99))} ms (target < 100 ms)`,
  );
  if (probe) {
    printDbActivity('the race (until every sale is committed)', raceStart.db!, raceEnd.db!, placed, 'order');
    printDbActivity('the sustained run', sustainedStart.db!, sustainedEnd.db!, sustainedOk, 'reservation');
  }
} finally {
  await db.end();
  await shop.stop();
}
