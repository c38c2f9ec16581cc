import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@shop/test-support/wait-until';
import { createPool } from '../../services/shared/src/db/pool.ts';
import { PostgresLogSubscription } from '../../services/shared/src/bus/postgres-log/postgres-log-subscription.ts';
import type { ReadModelConsumer } from '../../services/shared/src/bus/projection-read-model.ts';
import { PostgresEventStore } from '../../services/shared/src/eventstore/postgres-event-store.ts';
import type { ReplayFold } from '../../services/shared/src/replay/fold.ts';
import {
  replayProjections,
  tableChecksums,
  type ReplayTarget,
} from '../../services/shared/src/replay/projection-replay.ts';
import { usersProjection } from '../../services/accounts/src/read-models/users/users-projection.ts';
import { accountsFiguresProjection } from '../../services/order/src/read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresProjection } from '../../services/order/src/read-models/dashboard/catalog-figures-projection.ts';
import { ordersProjection } from '../../services/order/src/read-models/orders/orders-projection.ts';
import { productsProjection } from '../../services/catalog/src/read-models/products/products-projection.ts';
import { stockHoldsProjection } from '../../services/catalog/src/read-models/stock-holds/stock-holds-projection.ts';
import { bestSellersProjection } from '../../services/catalog/src/read-models/best-sellers/best-sellers-projection.ts';
import { paymentOrdersProjection } from '../../services/checkout/src/payment/read-models/payment-orders-projection.ts';
import { couponsProjection } from '../../services/checkout/src/coupons/read-models/coupons/coupons-projection.ts';
import { generateLog } from '../../scripts/generate-log.ts';

/**
 * One definition per read model runs live (on the bus, rows loaded and written back per batch) and in
 * replay (in memory, then COPY). The two must write the same rows: a generated log (every event type the
 * read models handle) is projected live by the Postgres-log subscription, then replayed in memory with
 * --verify, which must find every table identical; a definition that diverges is caught; and the live
 * runtime's batch entry point writes the same rows as one event at a time.
 */

const pubsub = { publish: async () => undefined, subscribe: async () => () => undefined } as never;
const CONSUMERS: ReadModelConsumer[] = [
  productsProjection(),
  stockHoldsProjection,
  bestSellersProjection() as ReadModelConsumer,
  paymentOrdersProjection,
  couponsProjection,
  ordersProjection(pubsub),
  catalogFiguresProjection(pubsub) as ReadModelConsumer,
  usersProjection,
  accountsFiguresProjection(pubsub) as ReadModelConsumer,
];
const TABLES = CONSUMERS.flatMap((c) => c.readModel.tables);

const database = `kapda_live_${process.pid}_${Date.now().toString(36)}`;
const serverUrl = (() => {
  const u = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = '/postgres';
  return u.toString();
})();
let pool: pg.Pool;
let live: Record<string, string>;

const targets = (): ReplayTarget[] =>
  CONSUMERS.map((consumer) => ({
    consumer,
    tables: consumer.readModel.tables,
    fold: () => consumer.readModel.fold(),
  }));

/** Whether the consumer's checkpoint of every source is at its log's last event. */
async function caughtUp(c: ReadModelConsumer): Promise<boolean> {
  for (const source of c.sources) {
    const { rows } = await pool.query<{ done: boolean }>(
      `SELECT coalesce((SELECT global_position FROM ${c.schema}.checkpoints WHERE consumer = $1 AND source = $2), 0)
                >= (SELECT coalesce(max(global_position), 0) FROM ${source}.events) AS done`,
      [c.name, source],
    );
    if (!rows[0]!.done) return false;
  }
  return true;
}

beforeAll(async () => {
  const { url } = await generateLog({ serverUrl, database, events: 3_000, seed: 1 });
  pool = createPool(url, 24); // each subscription holds a LISTEN connection besides its batches
  const subscriptions = CONSUMERS.map((consumer) => new PostgresLogSubscription({ pool, consumer, batchSize: 200 }));
  for (const s of subscriptions) await s.start();
  try {
    for (const c of CONSUMERS) await waitUntil(() => caughtUp(c), `${c.name} to project the log`, 120_000);
  } finally {
    for (const s of subscriptions) await s.stop();
  }
  live = await tableChecksums(pool, TABLES);
}, 300_000);
afterAll(async () => {
  await pool?.end();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
});

describe('a read model live and replayed', () => {
  it('the log has every event type the read models handle, and every table has rows', async () => {
    const { rows } = await pool.query<{ type: string }>(
      `SELECT DISTINCT type FROM (SELECT type FROM catalog.events UNION ALL SELECT type FROM checkout.events
        UNION ALL SELECT type FROM orders.events UNION ALL SELECT type FROM accounts.events) e`,
    );
    const present = new Set(rows.map((r) => r.type));
    const handled = new Set(CONSUMERS.flatMap((c) => [...(c.eventTypes ?? [])]));
    expect([...handled].filter((t) => !present.has(t))).toEqual([]);
    for (const table of TABLES) expect(live[table], table).not.toMatch(/^0:/);
  });

  it('writes the same rows in memory as live: --verify finds every table identical', async () => {
    const reports = await replayProjections({ pool, targets: targets(), verify: true, foldBatchSize: 700 });
    expect(reports.filter((r) => !r.identical).map((r) => r.projection)).toEqual([]);
    expect(Object.fromEntries(reports.flatMap((r) => r.tables.map((t) => [t.table, t.checksum])))).toEqual(live);
  }, 120_000);

  it('a replay that diverges from the live rows is caught by its checksum', async () => {
    const broken = targets().map((t) =>
      t.consumer.name === 'orders.orders'
        ? {
            ...t,
            fold: (): ReplayFold => {
              const real = t.fold!();
              return {
                apply: (e) => real.apply(e.type === 'OrderMarkedSeen' ? { ...e, type: 'Ignored' } : e),
                tables: () => real.tables(),
              };
            },
          }
        : t,
    );
    const reports = await replayProjections({ pool, targets: broken, verify: true });
    const orders = reports.find((r) => r.projection === 'orders.orders')!;
    expect(orders.identical).toBe(false);
    expect(orders.tables.find((t) => t.table === 'orders.orders')!.differences!.length).toBeGreaterThan(0);
    expect(reports.filter((r) => !r.identical).map((r) => r.projection)).toEqual(['orders.orders']);
  }, 120_000);

  it('applies a batch of events with one SELECT per table per round and one write per table, to the same rows', async () => {
    for (const consumer of [CONSUMERS[0]!, CONSUMERS[5]!]) {
      const { readModel } = consumer;
      const source = consumer.sources[0]!;
      const events = (await new PostgresEventStore(pool, source).readAll(undefined, 100_000)).filter((e) =>
        consumer.eventTypes!.includes(e.type),
      );
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const t of readModel.tables) await client.query(`DELETE FROM ${t}`);
        const statements: string[] = [];
        const counting = new Proxy(client, {
          get(target, prop) {
            if (prop === 'query')
              return (text: string, ...rest: unknown[]) => {
                statements.push(text);
                return (target.query as (...a: unknown[]) => unknown)(text, ...rest);
              };
            const v = Reflect.get(target, prop, target) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        });
        for (let i = 0; i < events.length; i += 250) {
          statements.length = 0;
          const batch = events.slice(i, i + 250);
          const effects = await consumer.handleBatch(batch, counting);
          expect(effects).toHaveLength(batch.length);
          const n = (verb: string, table: string) =>
            statements.filter((s) => s.trimStart().startsWith(verb) && s.includes(` ${table} `)).length;
          for (const t of readModel.tables) {
            expect(n('INSERT', t), `${t}: one upsert per batch`).toBeLessThanOrEqual(1);
            expect(n('DELETE', t), `${t}: one delete per batch`).toBeLessThanOrEqual(1);
            expect(n('SELECT', t), `${t}: a few load rounds per batch`).toBeLessThanOrEqual(3);
          }
        }
        const rebuilt = await tableChecksums(client as never, readModel.tables);
        expect(rebuilt).toEqual(Object.fromEntries(readModel.tables.map((t) => [t, live[t]])));
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    }
  }, 120_000);
});
