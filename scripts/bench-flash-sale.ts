/**
 * Flash-sale benchmark: N buyers (default 2,000) race through create-order + sandbox pay + verify over HTTP
 * for one product with S units (default 200). Then, each alone so that its costs are its own: the refusals
 * (N create-orders on the now sold-out product), the purchases (P buyers, default 200, at 32 concurrent on
 * ample stock: create-order + pay + verify, no refusals), and sustained create-order reservations on a hot
 * product at 64 concurrent for D seconds, beside the reference: a plain conditional single-row UPDATE loop at
 * the same concurrency on the same Postgres.
 *
 *   npm run bench:flash-sale [-- --mode distributed] [--buyers 2000] [--stock 200] [--purchases 200]
 *                            [--duration 10] [--db-activity]
 *
 * Buyers are undici clients, each on a connection and an address of its own (scripts/bench/shopper.ts). Per
 * phase it prints CPU per unit for the shop (its node processes), for Postgres (embedded: the shop's own
 * server; distributed: the machine's server's backends serving the shop's database) and for this process;
 * the commits (pg_stat_database), the transactions that wrote (embedded: transaction ids assigned) and the SQL
 * statements (embedded: pg_stat_statements, which the bench has the shop's server load) per unit. The shop's
 * and Postgres's idle rates (pollers, timers) are measured before the race and subtracted from each phase.
 * --db-activity also prints, per phase, the rows each table was written and every statement.
 *
 * Prints figures; never fails on them (0 oversold is asserted by the test suite, not here).
 */
import pg from 'pg';
import { adminToken, machineLine, percentile, startShopUnderTest } from './bench/shop-under-test.ts';
import {
  commitsBetween,
  DbActivityProbe,
  writeTransactionsBetween,
  printDbActivity,
  statementsBetween,
  type DbActivity,
} from './bench/db-activity.ts';
import { canMeasureCpu, cpuSecondsOf, isPostgres, processesCpuSeconds } from './bench/process-cpu.ts';
import { buy, CONNECTIONS, Shopper, Timeline, type Outcome } from './bench/shopper.ts';

const arg = (name: string, dflt: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt;
const mode = arg('mode', 'embedded');
const buyers = Number(arg('buyers', '2000'));
const stock = Number(arg('stock', '200'));
const purchases = Number(arg('purchases', '200'));
const duration = Number(arg('duration', '10'));
const concurrency = 64;
const purchaseConcurrency = 32;
const showDbActivity = process.argv.includes('--db-activity');
const embedded = mode !== 'distributed';
const cpu = canMeasureCpu();

/** At a phase's start or end: CPU seconds so far (shop's node processes, embedded Postgres, this process). */
interface Snapshot {
  at: number;
  shop: number;
  postgres: number;
  bench: number;
  db: DbActivity;
  /** Distributed: CPU seconds so far of each backend of the machine's Postgres serving the shop's database. */
  backends: Map<number, number>;
}
const cpuNow = () => {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    shop: cpu ? processesCpuSeconds() : NaN,
    // The embedded server (distributed mode's Postgres is the machine's: see the snapshot's backends).
    postgres: cpu && embedded ? processesCpuSeconds({ counted: isPostgres }) : NaN,
    bench: (own.user + own.system) / 1e6,
  };
};

async function createProduct(base: string, token: string, name: string, quantity: number): Promise<string> {
  const r = await fetch(`${base}/api/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name, price: 999, quantity, category: 'Men' }),
  });
  if (r.status !== 201) throw new Error(`create product: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { id: string }).id;
}

/** `total` jobs, at most `n` at a time. */
async function atConcurrency(n: number, total: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, total) }, async () => {
      while (next < total) await job(next++);
    }),
  );
}

/** The bench's own connections, told apart from the shop's in pg_stat_activity. */
const BENCH_APPLICATION = 'bench-flash-sale';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

const shop = await startShopUnderTest(mode, { RESERVATION_TTL_SECONDS: '900' }, { countStatements: embedded });
const db = new pg.Pool({ connectionString: shop.databaseUrl, max: 4, application_name: BENCH_APPLICATION });
// The reference loop's own connections, closed before the race: held idle, they would take the shop's
// Postgres connections (max_connections) away from it during the race.
const ref = new pg.Pool({ connectionString: shop.databaseUrl, max: concurrency });
const probe = new DbActivityProbe(db);
/** Waits for the statistics of what came before to reach the views, then reads them and the CPU. */
const snapshot = async (): Promise<Snapshot> => {
  const activity = await probe.read();
  const backends =
    cpu && !embedded
      ? cpuSecondsOf(
          (
            await probe.query(
              `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name <> $1`,
              [BENCH_APPLICATION],
            )
          ).rows.map((r) => r.pid as number),
        )
      : new Map<number, number>();
  return { ...cpuNow(), db: activity, backends };
};
/**
 * Postgres CPU seconds between two snapshots. Embedded: the shop's server. Distributed: the backends serving
 * the shop's database (one that closed before `to` is not counted: its time is lost with it).
 */
const postgresSeconds = (from: Snapshot, to: Snapshot): number =>
  embedded
    ? to.postgres - from.postgres
    : [...to.backends].reduce((sum, [pid, seconds]) => sum + seconds - (from.backends.get(pid) ?? 0), 0);
/** Sales are committed by the settlement consumer just after verify answers: waits (≤ 10 s) for `atLeast`. */
const unitsSold = async (productId: string, atLeast: number): Promise<number> => {
  let sold = 0;
  for (let i = 0; i < 100; i++) {
    const r = await probe.query(
      `SELECT coalesce(sum((data->>'quantity')::int), 0)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockCommitted'`,
      [`stock-${productId}`],
    );
    sold = r.rows[0].n;
    if (sold >= atLeast) break;
    await sleep(100);
  }
  return sold;
};
const ordersListed = async (): Promise<number> =>
  (await probe.query(`SELECT count(*)::int AS n FROM orders.orders`)).rows[0].n;
/**
 * Before a phase's end is read: waits (≤ 60 s) until its sales are committed and its orders are in the orders
 * list, so that the work a phase caused is counted in it and not in the next one.
 */
const settle = async (productId: string, placed: number, ordersBefore: number): Promise<void> => {
  for (let i = 0; i < 600; i++) {
    if ((await unitsSold(productId, 0)) >= placed && (await ordersListed()) >= ordersBefore + placed) return;
    await sleep(100);
  }
  console.error(`phase did not settle in 60 s: the next phase's figures include some of its work`);
};
const count = (outcomes: Outcome[], ...kinds: Outcome[]) => outcomes.filter((o) => kinds.includes(o)).length;
let firstErrors = 0;
const noteError = (err: unknown): Outcome => {
  if (++firstErrors <= 3) console.error(String(err), (err as { cause?: unknown }).cause ?? '');
  return 'error';
};

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

  // ---- the shop's CPU while idle (its pollers and timers), subtracted from each phase's ----
  const hot = await createProduct(shop.base, token, 'Flash Sale Kurta', stock);
  const idleFrom = await snapshot();
  await sleep(3000);
  const idleTo = await snapshot();
  const idleSeconds = (idleTo.at - idleFrom.at) / 1000;
  /** Per second while idle: CPU seconds, commits, statements. */
  const idle = {
    shop: (idleTo.shop - idleFrom.shop) / idleSeconds,
    postgres: postgresSeconds(idleFrom, idleTo) / idleSeconds,
    commits: commitsBetween(idleFrom.db, idleTo.db) / idleSeconds,
    writes: writeTransactionsBetween(idleFrom.db, idleTo.db) / idleSeconds,
    statements: (statementsBetween(idleFrom.db, idleTo.db) ?? NaN) / idleSeconds,
  };

  // ---- 1. the race: N buyers for S units ----
  const raceStart = await snapshot();
  const buyerMs: number[] = [];
  const t0 = performance.now();
  const timeline = new Timeline(t0);
  const raced = await Promise.all(
    Array.from({ length: buyers }, async () => {
      const start = performance.now();
      try {
        return await buy(shop.base, hot, timeline).catch(noteError);
      } finally {
        buyerMs.push(performance.now() - start);
      }
    }),
  );
  const raceSeconds = (performance.now() - t0) / 1000;
  const placed = count(raced, 'placed', 'late');
  const late = count(raced, 'late');
  const refused = count(raced, 'refused');
  const errors = count(raced, 'error');
  const sold = await unitsSold(hot, placed);
  const finalStock = (await probe.query(`SELECT quantity FROM catalog.products WHERE id = $1`, [hot])).rows[0]
    ?.quantity;
  const ordersInList = await ordersListed();
  const reservations = (
    await probe.query(`SELECT count(*)::int AS n FROM catalog.events WHERE stream_id = $1 AND type = 'StockReserved'`, [
      `stock-${hot}`,
    ])
  ).rows[0].n;
  await settle(hot, placed, 0);
  const raceEnd = await snapshot();

  // ---- 2. refusals only: N create-orders on the sold-out product, each a buyer on a connection of its own ----
  const refusalsStart = await snapshot();
  const refusals = await Promise.all(
    Array.from({ length: buyers }, async (): Promise<Outcome> => {
      const shopper = new Shopper(shop.base);
      try {
        const r = await shopper.createOrder(hot);
        return r.status === 409 ? 'refused' : noteError(new Error(`sold out create-order ${r.status} ${r.body}`));
      } catch (err) {
        return noteError(err);
      } finally {
        await shopper.close();
      }
    }),
  );
  const refusalsEnd = await snapshot();
  const refusedAlone = count(refusals, 'refused');

  // ---- 3. purchases only: P buyers on ample stock at 32 concurrent, create-order + pay + verify ----
  const plenty = await createProduct(shop.base, token, 'Ample Stock Shirt', 1_000_000);
  const ordersBefore = await ordersListed();
  const purchasesStart = await snapshot();
  const bought: Outcome[] = [];
  const purchaseMs: number[] = [];
  await atConcurrency(purchaseConcurrency, purchases, async () => {
    const s = performance.now();
    bought.push(await buy(shop.base, plenty).catch(noteError));
    purchaseMs.push(performance.now() - s);
  });
  const purchased = count(bought, 'placed', 'late');
  const purchasedSold = await unitsSold(plenty, purchased);
  await settle(plenty, purchased, ordersBefore);
  const purchasesEnd = await snapshot();

  // ---- 4. sustained reservations with ample stock: 64 callers, each on one keep-alive connection ----
  const ample = await createProduct(shop.base, token, 'Ample Stock Tee', 1_000_000);
  const sustainedStart = await snapshot();
  const sustainedMs: number[] = [];
  let sustainedOk = 0;
  let sustainedErr = 0;
  const until = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const caller = new Shopper(shop.base);
      try {
        while (performance.now() < until) {
          const s = performance.now();
          const r = await caller.createOrder(ample, Shopper.nextBuyer()).catch((err: unknown) => {
            noteError(err);
            return { status: 0 };
          });
          sustainedMs.push(performance.now() - s);
          if (r.status === 201) sustainedOk += 1;
          else sustainedErr += 1;
        }
      } finally {
        await caller.close();
      }
    }),
  );
  const sustainedRate = sustainedOk / duration;
  const sustainedEnd = await snapshot();

  // ---- the figures ----
  console.log(
    `\nbench-flash-sale (${mode}): ${buyers} buyers, ${stock} units, create-order + sandbox pay + verify over HTTP`,
  );
  console.log(machineLine());
  console.log(
    `buyers: ${CONNECTIONS}, each buyer from an address of its own (x-forwarded-for); the sustained run: ${concurrency} keep-alive connections, each order a buyer of its own`,
  );
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
  // every buyer starts with the race: its create-order took as long as the race had run when it was answered
  const createMs = [...timeline.at.refusal, ...timeline.at.createOrder];
  console.log(`| create-order p50 / p99 | ${f(percentile(createMs, 50))} / ${f(percentile(createMs, 99))} ms |`);
  console.log(
    `| whole buyer (create+pay+verify) p50 / p99 | ${f(percentile(buyerMs, 50))} / ${f(percentile(buyerMs, 99))} ms |`,
  );
  if (cpu) {
    const used = (what: 'shop' | 'postgres') =>
      (((raceEnd[what] - raceStart[what]) / Math.max(1, buyers)) * 1e6).toFixed(0);
    console.log(`| shop CPU per buyer in the race (node processes, user+system) | ${used('shop')} µs |`);
    if (embedded) console.log(`| Postgres CPU per buyer in the race | ${used('postgres')} µs |`);
    console.log(`| shop CPU while idle, subtracted in the phases below | ${(idle.shop * 1000).toFixed(1)} ms per s |`);
    console.log(
      `| Postgres CPU while idle, subtracted in the phases below | ${(idle.postgres * 1000).toFixed(1)} ms per s |`,
    );
  }
  console.log(`| commits per second while idle, subtracted in the phases below | ${f(idle.commits)} |`);
  if (embedded)
    console.log(`| write transactions per second while idle, subtracted in the phases below | ${f(idle.writes)} |`);
  if (embedded)
    console.log(`| SQL statements per second while idle, subtracted in the phases below | ${f(idle.statements)} |`);
  console.log(`| refusals-only run: create-orders refused (409) | ${refusedAlone} of ${buyers} |`);
  console.log(
    `| purchases-only run: orders placed (of which verify answered 202) | ${purchased} of ${purchases} (${count(bought, 'late')}) |`,
  );
  console.log(`| purchases-only run: units sold (StockCommitted) | ${purchasedSold} |`);
  console.log(
    `| purchases-only run: whole buyer p50 / p99 | ${f(percentile(purchaseMs, 50))} / ${f(percentile(purchaseMs, 99))} ms |`,
  );

  console.log(`\nwhen the race's answers came (ms since the race's start):`);
  console.log('| answered | count | first | p50 | p99 | last |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, at] of [
    ['refusals (409)', timeline.at.refusal],
    ['create-orders (201)', timeline.at.createOrder],
    ['sandbox pays', timeline.at.pay],
    ['verifies', timeline.at.verify],
  ] as const) {
    const first = at.length ? Math.min(...at) : NaN;
    const last = at.length ? Math.max(...at) : NaN;
    console.log(
      `| ${name} | ${at.length} | ${f(first)} | ${f(percentile(at, 50))} | ${f(percentile(at, 99))} | ${f(last)} |`,
    );
  }

  /**
   * Per unit of a phase: CPU in µs (shop and Postgres), commits and statements, each less its idle rate over
   * the phase's time; this process's CPU as it is.
   */
  const phase = (from: Snapshot, to: Snapshot, units: number) => {
    const seconds = (to.at - from.at) / 1000;
    const per = (x: number) => x / Math.max(1, units);
    const used = { shop: to.shop - from.shop, postgres: postgresSeconds(from, to) };
    const busy = (what: 'shop' | 'postgres') => per((used[what] - idle[what] * seconds) * 1e6);
    const statements = statementsBetween(from.db, to.db) ?? NaN;
    return {
      shop: busy('shop'),
      postgres: busy('postgres'),
      bench: per((to.bench - from.bench) * 1e6),
      commits: per(commitsBetween(from.db, to.db) - idle.commits * seconds),
      // server-wide: the machine's Postgres of distributed mode serves others too
      writes: embedded ? per(writeTransactionsBetween(from.db, to.db) - idle.writes * seconds) : NaN,
      statements: per(statements - idle.statements * seconds),
    };
  };
  const phases = [
    [`the race: ${buyers} buyers for ${stock} units (per buyer)`, phase(raceStart, raceEnd, buyers)],
    [`refusals only: ${buyers} create-orders, sold out (per refusal)`, phase(refusalsStart, refusalsEnd, refusedAlone)],
    [
      `purchases only: ${purchases} buyers at ${purchaseConcurrency} concurrent, ample stock (per purchase)`,
      phase(purchasesStart, purchasesEnd, purchased),
    ],
    [
      `sustained create-order at ${concurrency} concurrent (per reservation)`,
      phase(sustainedStart, sustainedEnd, sustainedOk),
    ],
  ] as const;
  const ms = (us: number) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : '-');
  const us = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
  const n2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  console.log(
    `\nper phase: CPU is user+system from /proc (the shop: its node processes; Postgres: ${embedded ? "the shop's embedded server" : "the machine's server's backends serving the shop's database, less any that closed during the phase"}); the bench: this process (process.cpuUsage). Commits: pg_stat_database xact_commit (read-only transactions too), the bench's own left out; of which wrote: ${embedded ? 'transaction ids assigned' : "not counted (the machine's Postgres is shared)"}. SQL statements: ${embedded ? 'pg_stat_statements calls (top level; transaction control and the bench left out)' : "not counted (the machine's Postgres does not load pg_stat_statements)"}. Shop and Postgres CPU, commits and statements: less their idle rate above over the phase's time.`,
  );
  console.log('| phase | shop CPU µs | Postgres CPU µs | bench CPU µs | commits | of which wrote | SQL statements |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, p] of phases)
    console.log(
      `| ${name} | ${us(p.shop)} | ${us(p.postgres)} | ${us(p.bench)} | ${n2(p.commits)} | ${n2(p.writes)} | ${n2(p.statements)} |`,
    );

  const purchase = phases[2][1];
  const refusal = phases[1][1];
  console.log(`\nagainst the targets (issue 24):`);
  console.log('| figure | measured | target |');
  console.log('|---|---:|---:|');
  console.log(`| commits per purchase | ${n2(purchase.commits)} | 10 |`);
  console.log(`| of which wrote (transaction ids assigned) | ${n2(purchase.writes)} | - |`);
  console.log(`| SQL statements per purchase | ${n2(purchase.statements)} | 25 |`);
  console.log(`| shop + Postgres CPU per purchase (ms) | ${ms(purchase.shop + purchase.postgres)} | 8 |`);
  console.log(`| shop CPU per refusal (ms) | ${ms(refusal.shop)} | 0.3 |`);
  console.log(`| all buyers resolved in (s) | ${raceSeconds.toFixed(2)} | ${embedded ? 2 : 3} |`);

  console.log(`\nsustained, ample stock, ${concurrency} concurrent, ${duration} s:`);
  console.log('| run | per second | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| create-order reservations on one hot product | ${f(sustainedRate)} | ${f(percentile(sustainedMs, 50))} | ${f(percentile(sustainedMs, 99))} | ${sustainedErr} |`,
  );
  console.log(
    `| reference: conditional single-row UPDATE loop | ${f(refRate)} | ${f(percentile(refMs, 50))} | ${f(percentile(refMs, 99))} | 0 |`,
  );
  if (cpu) {
    const used = (what: 'shop' | 'postgres') =>
      (((sustainedEnd[what] - sustainedStart[what]) / Math.max(1, sustainedOk)) * 1e6).toFixed(0);
    const postgres = embedded ? `, Postgres CPU per reservation: ${used('postgres')} µs` : '';
    console.log(`shop CPU per reservation: ${used('shop')} µs${postgres}`);
  }
  console.log(
    `ratio: ${(sustainedRate / refRate).toFixed(2)}x the reference (target >= 1x), create-order p99 ${f(percentile(sustainedMs, 99))} ms (target < 100 ms)`,
  );
  if (showDbActivity) {
    printDbActivity('the race (until every sale is committed)', raceStart.db, raceEnd.db, placed, 'order');
    printDbActivity('the refusals-only run', refusalsStart.db, refusalsEnd.db, refusedAlone, 'refusal');
    printDbActivity('the purchases-only run', purchasesStart.db, purchasesEnd.db, purchased, 'purchase');
    printDbActivity('the sustained run', sustainedStart.db, sustainedEnd.db, sustainedOk, 'reservation');
  }
} finally {
  await db.end();
  await shop.stop();
}
