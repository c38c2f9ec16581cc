/**
 * What one purchase asks of Postgres, counted rather than timed: the whole shop in this process on an
 * embedded Postgres, N buyers one after another or some at a time (create-order, sandbox pay, verify), then the SQL
 * statements the shop sent (every pg client's query counted), the transactions Postgres committed and the
 * CPU of this process and of Postgres, per purchase. The idle background (subscriptions' fallback polls,
 * jobs) over the same time is measured first and subtracted.
 *
 *   npx tsx scripts/bench/purchase-cost.ts [--purchases 30] [--concurrency 1] [--top 25]
 *
 * Node CPU includes this script's own fetches (a few per purchase); figures move little with machine load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startShop } from '../../services/gateway/src/shop.ts';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { loadConfig } from '../../services/shared/src/config/config.ts';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import { isPostgres, processesCpuSeconds } from './process-cpu.ts';

const arg = (name: string, dflt: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt;
const purchases = Number(arg('purchases', '30'));
const top = Number(arg('top', '25'));
/** Buyers at once (each of them buying in turn); 1: one purchase after another. */
const concurrency = Number(arg('concurrency', '1'));

// Every statement any pg client of this process sends (pool.query goes through client.query).
const byText = new Map<string, number>();
let statements = 0;
let counting = true;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    statements += 1;
    const q = args[0] as string | { text?: string } | undefined;
    const text = (typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 110);
    byText.set(text, (byText.get(text) ?? 0) + 1);
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'purchase-cost-'));
const admin = { email: 'cost-admin@shop.local', password: 'cost-admin-pass' };
const config = loadConfig({
  PORT: '0',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  JWT_SECRET: 'purchase-cost-secret-purchase-cost',
  RESERVATION_TTL_SECONDS: '900',
});
const shop = await startShop(config, { host: '127.0.0.1' });
const base = shop.url;
const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Snapshot {
  statements: number;
  commits: number;
  node: number;
  postgres: number;
  byText: Map<string, number>;
  /** performance.now() when read. */
  at: number;
}
const db = new pg.Pool({ connectionString: shop.infra.databaseUrl, max: 1 });
async function snapshot(): Promise<Snapshot> {
  counting = false;
  try {
    // Statistics reach pg_stat_database up to a second after a backend's transaction ends.
    await sleep(1_200);
    const { rows } = await db.query(
      `SELECT xact_commit::bigint AS c FROM pg_stat_database WHERE datname = current_database()`,
    );
    const cpu = process.cpuUsage();
    return {
      statements,
      commits: Number(rows[0].c),
      node: (cpu.user + cpu.system) / 1e6,
      postgres: processesCpuSeconds({ counted: isPostgres }),
      byText: new Map(byText),
      at: performance.now(),
    };
  } finally {
    counting = true;
  }
}

const stepMs = { create: 0, pay: 0, verify: 0 };
async function buy(n: number, productId: string): Promise<void> {
  let t = performance.now();
  const lap = (step: keyof typeof stepMs) => {
    const now = performance.now();
    stepMs[step] += now - t;
    t = now;
  };
  const headers = { ...json, ...fromBuyer(n) };
  const r = await fetch(`${base}/api/payment/create-order`, {
    method: 'POST',
    headers,
    body: JSON.stringify(guestOrder(`cost_${n}`, n, [{ productId, quantity: 1 }], { couponCode: null })),
  });
  if (r.status !== 201) throw new Error(`create-order ${r.status} ${await r.text()}`);
  const order = (await r.json()) as { id: string };
  lap('create');
  const paid = await sandboxPay(`${base}/razorpay-sandbox`, order.id);
  lap('pay');
  const v = await fetch(`${base}/api/payment/verify`, { method: 'POST', headers, body: JSON.stringify(paid) });
  const body = (await v.json()) as { orderNumber?: string | null };
  lap('verify');
  if (v.status !== 200 || !body.orderNumber) throw new Error(`verify ${v.status} ${JSON.stringify(body)}`);
}

try {
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify(admin) });
  const { token } = (await login.json()) as { token: string };
  const created = await fetch(`${base}/api/products`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Cost Kurta', price: 999, quantity: 100_000, category: 'Men' }),
  });
  const { id: productId } = (await created.json()) as { id: string };
  for (let i = 0; i < 3; i++) await buy(1_000_000 + i, productId); // warm-up
  await sleep(2_000);

  // The purchases; then the idle background over as long, to subtract.
  const before = await snapshot();
  for (const k of Object.keys(stepMs) as Array<keyof typeof stepMs>) stepMs[k] = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < purchases) await buy(next++, productId);
    }),
  );
  await sleep(1_000); // the purchases' tail: settlement, projections
  const after = await snapshot();
  const busySeconds = (after.at - before.at) / 1000;
  const idleFrom = await snapshot();
  await sleep(Math.max(3_000, busySeconds * 1000 - 1_200));
  const idleTo = await snapshot();
  const idleSeconds = (idleTo.at - idleFrom.at) / 1000;

  const per = (v: number) => (v / purchases).toFixed(2);
  const d = (k: 'statements' | 'commits' | 'node' | 'postgres') => after[k] - before[k];
  const idle = (k: 'statements' | 'commits' | 'node' | 'postgres') =>
    ((idleTo[k] - idleFrom[k]) * busySeconds) / idleSeconds;
  console.log(`purchase-cost: ${purchases} purchases, ${concurrency} at a time, embedded, ${busySeconds.toFixed(1)} s`);
  console.log(
    `wall time per purchase: create-order ${(stepMs.create / purchases).toFixed(1)} ms, pay ${(stepMs.pay / purchases).toFixed(1)} ms, verify ${(stepMs.verify / purchases).toFixed(1)} ms`,
  );
  console.log(`| figure | per purchase | idle background subtracted |`);
  console.log(`|---|---:|---:|`);
  console.log(`| SQL statements | ${per(d('statements') - idle('statements'))} | ${per(idle('statements'))} |`);
  console.log(`| commits | ${per(d('commits') - idle('commits'))} | ${per(idle('commits'))} |`);
  console.log(
    `| node CPU (shop + this script's fetches) | ${((1e6 * (d('node') - idle('node'))) / purchases).toFixed(0)} µs | ${((1e6 * idle('node')) / purchases).toFixed(0)} µs |`,
  );
  console.log(
    `| Postgres CPU | ${((1e6 * (d('postgres') - idle('postgres'))) / purchases).toFixed(0)} µs | ${((1e6 * idle('postgres')) / purchases).toFixed(0)} µs |`,
  );
  const rows = [...after.byText]
    .map(([text, n]) => [text, n - (before.byText.get(text) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  console.log(`\nstatements sent during the purchases, per purchase (idle background included):`);
  for (const [text, n] of rows) console.log(`${per(n).padStart(7)}  ${text}`);
} finally {
  await db.end();
  await shop.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
