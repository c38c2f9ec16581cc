import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../services/shared/src/db/pool.ts';
import type { EventConsumer } from '../../services/shared/src/bus/types.ts';
import type { ReplayFold } from '../../services/shared/src/replay/fold.ts';
import { replayProjections, type ProjectionReport } from '../../services/shared/src/replay/projection-replay.ts';
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
import { PROJECTION_FOLDS, PROJECTION_TABLES } from '../../scripts/lib/projection-tables.ts';

/**
 * The replay's fast path folds projections in memory. Each fold must give exactly the rows its projection's
 * handle() gives: a generated log (every event type the folded projections handle) is replayed with the
 * folds and through handle(), and the replay's own checksums must match table by table.
 */

const pubsub = { publish: async () => undefined, subscribe: async () => () => undefined } as never;
const CONSUMERS: EventConsumer[] = [
  productsProjection(),
  stockHoldsProjection,
  bestSellersProjection(),
  paymentOrdersProjection,
  couponsProjection,
  ordersProjection(pubsub),
  catalogFiguresProjection(pubsub),
  usersProjection,
  accountsFiguresProjection(pubsub),
];

const database = `kapda_fold_${process.pid}_${Date.now().toString(36)}`;
const serverUrl = (() => {
  const u = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = '/postgres';
  return u.toString();
})();
let pool: pg.Pool;

const targets = (folds: boolean) =>
  CONSUMERS.map((consumer) => ({
    consumer,
    tables: PROJECTION_TABLES[consumer.name]!,
    ...(folds ? { fold: PROJECTION_FOLDS[consumer.name]! } : {}),
  }));
const checksums = (reports: ProjectionReport[]) =>
  Object.fromEntries(reports.flatMap((r) => r.tables.map((t) => [t.table, t.checksum])));

beforeAll(async () => {
  const { url } = await generateLog({ serverUrl, database, events: 5_000, seed: 1 });
  pool = createPool(url, 4);
}, 120_000);
afterAll(async () => {
  await pool?.end();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
});

describe('replay folds', () => {
  it('cover every folded projection, and the log has every event type they handle', async () => {
    expect(CONSUMERS.map((c) => c.name).sort()).toEqual(Object.keys(PROJECTION_FOLDS).sort());
    const { rows } = await pool.query<{ type: string }>(
      `SELECT DISTINCT type FROM (SELECT type FROM catalog.events UNION ALL SELECT type FROM checkout.events
        UNION ALL SELECT type FROM orders.events UNION ALL SELECT type FROM accounts.events) e`,
    );
    const present = new Set(rows.map((r) => r.type));
    const handled = new Set(CONSUMERS.flatMap((c) => [...(c.eventTypes ?? [])]));
    expect([...handled].filter((t) => !present.has(t))).toEqual([]);
  });

  it('give the same rows as handle(): same checksums, table by table, and --verify agrees', async () => {
    const generic = await replayProjections({ pool, targets: targets(false) });
    const folded = await replayProjections({ pool, targets: targets(true), foldBatchSize: 700 });
    const expected = checksums(generic);
    expect(Object.keys(expected).sort()).toEqual(CONSUMERS.flatMap((c) => PROJECTION_TABLES[c.name]!).sort());
    for (const table of Object.keys(expected)) expect(expected[table], table).not.toMatch(/^0:/); // every table has rows
    expect(checksums(folded)).toEqual(expected);
    expect(folded.map((r) => r.events)).toEqual(generic.map((r) => r.events));

    // The folded replay swapped its rows in; handle()'s rebuild compares identical to them.
    const verified = await replayProjections({ pool, targets: targets(false), verify: true });
    expect(verified.filter((r) => !r.identical).map((r) => r.projection)).toEqual([]);
  }, 120_000);

  it('a fold that diverges from handle() is caught by its checksum', async () => {
    const broken = targets(true).map((t) =>
      t.consumer.name === 'orders.orders'
        ? {
            ...t,
            fold: (): ReplayFold => {
              const real = PROJECTION_FOLDS['orders.orders']!();
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
});
