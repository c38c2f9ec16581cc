/**
 * Reservation-core benchmark: the catalog's StockWriter over the PostgresEventStore alone (no HTTP, no
 * checkout), 64 concurrent callers issuing ReserveStock commands for D seconds (default 10), first on one hot
 * stock stream, then spread over 8 streams; beside the reference: a plain conditional single-row UPDATE loop
 * at the same concurrency on the same Postgres.
 *
 *   npm run bench:reserve [-- --duration 10] [--concurrency 64] [--streams 8]
 *
 * Runs on a fresh database `bench_reserve_<ts>` of DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres), migrated as the services migrate, dropped at the end.
 * Prints figures; never fails on them.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { machineLine, percentile } from './bench/shop-under-test.ts';
import { canMeasureCpu, cpuSecondsOf } from './bench/process-cpu.ts';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { createPool } from '../services/shared/src/db/pool.ts';
import { migrate } from '../services/shared/src/db/migrate.ts';
import { PostgresEventStore } from '../services/shared/src/eventstore/postgres-event-store.ts';
import { StockWriter } from '../services/catalog/src/inventory/stock-writer.ts';
import { decideStock, evolveStock, initialStockState } from '../services/catalog/src/stock/decider.ts';
import { stockStreamId, type StockEvent } from '../services/catalog/src/stock/events.ts';

const arg = (name: string, dflt: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt;
const duration = Number(arg('duration', '10'));
const concurrency = Number(arg('concurrency', '64'));
const spread = Number(arg('streams', '8'));
/** Units per stream: far more than any run can reserve, so no reservation is refused for stock. */
const AMPLE = 100_000_000;
/** The catalog process's request pool, as the services size it (DATABASE_POOL_SIZE default 20). */
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 20);

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = await createFreshDatabase(server, `bench_reserve_${Date.now()}`);
const databaseUrl = database.url;

interface Run {
  rate: number;
  /** Per reservation answered: appends, and CPU µs of this process and of the database's Postgres backends. */
  appendsPer?: number;
  cpuUs?: { node: number; postgres: number };
  ms: number[];
  ok: number;
  errors: number;
  firstError?: string;
}

/** `concurrency` callers in a loop for `duration` s; call i works on pick(i). */
async function loop(op: (caller: number) => Promise<boolean>): Promise<Run> {
  const ms: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const until = performance.now() + duration * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      while (performance.now() < until) {
        const s = performance.now();
        try {
          if (await op(caller)) ok += 1;
          else errors += 1;
        } catch (err) {
          errors += 1;
          firstError ??= String(err);
        }
        ms.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { rate: ok / seconds, ms, ok, errors, firstError };
}

/** The Postgres backends serving this database (the pool's connections), but not `db`'s own. */
async function backends(db: pg.Pool): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows.map((r) => r.pid);
}

/**
 * Runs `run` and adds what each reservation cost: CPU of this process and of the database's Postgres
 * backends (/proc; figures that move less with the machine's other load than the rate does).
 */
async function measured(run: () => Promise<Run>, appends: () => number): Promise<Run> {
  const probe = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const before = cpuSecondsOf(await backends(probe));
    const nodeBefore = process.cpuUsage();
    const appendsBefore = appends();
    const r = await run();
    const node = process.cpuUsage(nodeBefore);
    // A backend that started during the run counts from 0 (one that ended during it is not seen: the pool keeps them).
    let postgres = 0;
    for (const [pid, seconds] of cpuSecondsOf(await backends(probe))) postgres += seconds - (before.get(pid) ?? 0);
    const per = (x: number) => (r.ok > 0 ? x / r.ok : NaN);
    r.appendsPer = per(appends() - appendsBefore);
    if (canMeasureCpu()) r.cpuUs = { node: per(node.user + node.system), postgres: per(postgres * 1e6) };
    return r;
  } finally {
    await probe.end();
  }
}

const pool = createPool(databaseUrl, poolSize);
const refDb = new pg.Pool({ connectionString: databaseUrl, max: concurrency });
try {
  await migrate(pool);
  const store = new PostgresEventStore(pool, 'catalog');
  // Appends (one statement, one commit each) counted as they are made.
  let appends = 0;
  const append = store.append.bind(store);
  store.append = (...args) => {
    appends += 1;
    return append(...args);
  };

  /** Seeds a stock stream the way the catalog sets stock: the decider's SetStockLevel on the stream's state. */
  const seed = async (productId: string) => {
    const streamId = stockStreamId(productId, null);
    const { state, version } = await store.aggregate(streamId, evolveStock, initialStockState());
    const events = decideStock(
      { type: 'SetStockLevel', data: { productId, size: null, available: AMPLE, now: new Date() } },
      state,
    );
    await store.append(streamId, version, events as StockEvent[], { metadata: { actor: 'bench' } });
    return streamId;
  };

  /** One writer per run, as the catalog process has one: it starts cold (loads the stream on first use). */
  const coreRun = async (products: string[]): Promise<Run> => {
    const streams = await Promise.all(products.map(seed));
    const writer = new StockWriter(store);
    const backstopMs = 2 * 900_000 + 30_000;
    const run = () =>
      loop(async (caller) => {
        const i = caller % streams.length;
        const now = new Date();
        const events = await writer.execute(streams[i]!, {
          type: 'ReserveStock',
          data: {
            productId: products[i]!,
            size: null,
            reservationId: `${randomUUID()}#0`,
            quantity: 1,
            now,
            expiresAt: new Date(now.getTime() + backstopMs),
          },
        });
        return events.length === 1;
      });
    return measured(run, () => appends);
  };

  // ---- the reference first, alone on the server ----
  await refDb.query(`CREATE TABLE public.bench_reference_stock (id int PRIMARY KEY, available int NOT NULL)`);
  await refDb.query(`INSERT INTO public.bench_reference_stock VALUES (1, $1)`, [AMPLE]);
  const ref = await measured(
    () =>
      loop(async () => {
        const r = await refDb.query(
          `UPDATE public.bench_reference_stock SET available = available - 1 WHERE id = 1 AND available > 0`,
        );
        return r.rowCount === 1;
      }),
    () => 0,
  );
  await refDb.end();

  // ---- the core: one hot stream, then `spread` streams ----
  const hot = await coreRun([`bench-hot-${randomUUID()}`]);
  const spreadRun = await coreRun(Array.from({ length: spread }, (_, i) => `bench-${i}-${randomUUID()}`));

  // Check: every reservation the writer answered for is in the log, once.
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM catalog.events WHERE type = 'StockReserved'`,
  );
  const recorded = rows[0]!.n;

  const f = (n: number) => n.toFixed(1);
  const row = (name: string, r: Run) =>
    `| ${name} | ${f(r.rate)} | ${f(percentile(r.ms, 50))} | ${f(percentile(r.ms, 99))} | ${r.errors} | ${r.appendsPer?.toFixed(3) ?? '-'} | ${r.cpuUs ? f(r.cpuUs.node) : '-'} | ${r.cpuUs ? f(r.cpuUs.postgres) : '-'} |`;
  console.log(
    `\nbench-reserve: StockWriter + PostgresEventStore (no HTTP), ${concurrency} concurrent callers, ${duration} s per run, pool ${poolSize}`,
  );
  console.log(machineLine());
  console.log(
    '| run | reservations/s | p50 ms | p99 ms | errors | appends per reservation | node CPU µs per reservation | Postgres CPU µs per reservation |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('core: ReserveStock on one hot stream', hot));
  console.log(row(`core: ReserveStock over ${spread} streams`, spreadRun));
  console.log(row('reference: conditional single-row UPDATE loop', ref));
  console.log(`\nagainst the reference (issue 24: the core on one hot stream >= 25x the UPDATE loop):`);
  console.log('| ratio to the reference | measured | target |');
  console.log('|---|---:|---:|');
  console.log(`| core: ReserveStock on one hot stream | ${(hot.rate / ref.rate).toFixed(2)}x | 25x |`);
  console.log(`| core: ReserveStock over ${spread} streams | ${(spreadRun.rate / ref.rate).toFixed(2)}x | - |`);
  console.log(
    `StockReserved events recorded: ${recorded} (answered: ${hot.ok + spreadRun.ok}${recorded === hot.ok + spreadRun.ok ? ', equal' : ', DIFFERENT'})`,
  );
  for (const [name, r] of [
    ['hot', hot],
    ['spread', spreadRun],
    ['reference', ref],
  ] as const)
    if (r.firstError) console.log(`first error (${name}): ${r.firstError}`);
} finally {
  await pool.end().catch(() => undefined);
  await refDb.end().catch(() => undefined);
  await database.drop();
}
