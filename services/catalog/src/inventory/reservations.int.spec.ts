import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { startCatalogTestHost, type CatalogTestHost } from '../testing/catalog-test-host.ts';
import { evolveStock, initialStockState } from '../stock/decider.ts';
import { stockStreamId, type StockEvent } from '../stock/events.ts';
import { holdsOfReservation } from './reservations.ts';

let host: CatalogTestHost;
let log: PostgresEventStore;
beforeAll(async () => {
  host = await startCatalogTestHost();
  log = new PostgresEventStore(host.infra.pool, 'catalog');
});
afterAll(() => host.stop());

interface Fixture {
  general: string;
  sized: string;
  split: string;
  streams: string[];
}
let f: Fixture;
/** Fresh products for each test: one sold without sizes, two sold by size. */
beforeEach(async () => {
  const general = await host.createProduct('Reservation Dupatta', { quantity: 20, sizeQuantities: [] });
  const bySize = (name: string) =>
    host.createProduct(name, {
      quantity: 0,
      sizeQuantities: [
        ['S', 10],
        ['M', 10],
      ],
    });
  const sized = await bySize('Reservation Kurta');
  const split = await bySize('Reservation Sherwani');
  f = {
    general,
    sized,
    split,
    streams: [
      stockStreamId(general, null),
      stockStreamId(sized, 'S'),
      stockStreamId(sized, 'M'),
      stockStreamId(split, 'S'),
      stockStreamId(split, 'M'),
    ],
  };
});

/** Each stock stream's units on sale and its holds' statuses, folded from the catalog's log (the truth). */
async function stock() {
  const out: Record<string, { available: number; holds: Record<string, string> }> = {};
  for (const id of f.streams) {
    const s = initialStockState();
    for (const e of await log.readStream(id)) evolveStock(s, { type: e.type, data: e.data } as StockEvent);
    out[id] = {
      available: s.available,
      holds: Object.fromEntries([...s.holds].map(([hold, h]) => [hold, h.status])),
    };
  }
  return out;
}
const availability = async () =>
  Object.fromEntries(Object.entries(await stock()).map(([id, s]) => [id, s.available] as const));
const eventCount = async () =>
  (await host.infra.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM catalog.events')).rows[0]!.n;
/** The hold ids (and their stream) a reservation has, with every status they are in. */
async function holdsOn(reservationId: string) {
  const all = await stock();
  return Object.entries(all).flatMap(([stream, s]) =>
    Object.entries(s.holds)
      .filter(([hold]) => hold.startsWith(`${reservationId}#`))
      .map(([hold, status]) => `${stream} ${hold} ${status}`),
  );
}

/** One general line, one sized line, one line with no size split over a sized product's sizes. */
async function reserveThreeLines(reservationId: string) {
  const r = await host.catalog.inventory.reserve(reservationId, [
    { productId: f.general, size: null, color: null, quantity: 2 },
    { productId: f.sized, size: 'M', color: null, quantity: 1 },
    { productId: f.split, size: null, color: null, quantity: 13 },
  ]);
  expect(r.ok).toBe(true);
  if (!r.ok) throw new Error('refused');
  // The third line took both sizes of the split product (10 of one, 3 of the other) under one hold id.
  expect(r.lines.filter((l) => l.holdId === `${reservationId}#2`).map((l) => l.quantity)).toEqual(
    expect.arrayContaining([10, 3]),
  );
  expect(r.lines).toHaveLength(4);
  return r.lines;
}

describe('reservations by id alone (holds found in the catalog log)', () => {
  it('release(id) gives every hold of a multi-line reservation back, idempotently', async () => {
    const before = await availability();
    const id = `res-${randomUUID()}`;
    await reserveThreeLines(id);
    const held = await availability();
    expect(Object.values(held).reduce((a, b) => a + b)).toBe(Object.values(before).reduce((a, b) => a + b) - 16);

    await host.catalog.inventory.release(id);
    expect(await availability()).toEqual(before);
    const holds = await holdsOn(id);
    expect(holds).toHaveLength(4);
    for (const h of holds) expect(h).toMatch(/ released$/);

    // Idempotent: a second release writes nothing.
    const n = await eventCount();
    const after = await stock();
    await host.catalog.inventory.release(id);
    expect(await eventCount()).toBe(n);
    expect(await stock()).toEqual(after);
  });

  it('commit(id) turns every hold of a multi-line reservation into a sale, idempotently', async () => {
    const before = await availability();
    const id = `res-${randomUUID()}`;
    await reserveThreeLines(id);
    const held = await availability();

    await host.catalog.inventory.commit(id);
    const holds = await holdsOn(id);
    expect(holds).toHaveLength(4);
    for (const h of holds) expect(h).toMatch(/ committed$/);
    // One StockCommitted per hold, on the stream that held it, with the held quantity.
    const committed = await host.infra.pool.query<{ stream_id: string; hold: string; quantity: number }>(
      `SELECT stream_id, data->>'reservationId' AS hold, (data->>'quantity')::int AS quantity FROM catalog.events
        WHERE type = 'StockCommitted' AND data->>'reservationId' LIKE $1 ORDER BY 1`,
      [`${id}#%`],
    );
    expect(committed.rows.reduce((sum, r) => sum + r.quantity, 0)).toBe(16);
    expect(committed.rows).toHaveLength(4);
    expect(await availability()).toEqual(held);
    expect(held).not.toEqual(before);

    const n = await eventCount();
    await host.catalog.inventory.commit(id);
    // A release after the sale gives nothing back either.
    await host.catalog.inventory.release(id);
    expect(await eventCount()).toBe(n);
    expect(await availability()).toEqual(held);
  });

  it('an id the catalog does not know (or a prefix of a known one) commits and releases nothing', async () => {
    const id = `res-${randomUUID()}`;
    await reserveThreeLines(`${id}0`);
    const n = await eventCount();
    const state = await stock();
    for (const unknown of [id, `res-${randomUUID()}`]) {
      await host.catalog.inventory.release(unknown);
      await host.catalog.inventory.commit(unknown);
    }
    expect(await eventCount()).toBe(n);
    expect(await stock()).toEqual(state);
    await host.catalog.inventory.release(`${id}0`);
  });

  it("finds a reservation's holds through the events_stock_reservation index", async () => {
    // Capture holdsOfReservation's own SQL, then ask the planner how it runs it (sequential scans off:
    // the test's table is small, so the planner would otherwise rightly prefer a scan).
    const id = `res-${randomUUID()}`;
    await reserveThreeLines(id);
    let sql = '';
    const spy = {
      query: (text: string, params: unknown[]) => {
        sql = text;
        return host.infra.pool.query(text, params);
      },
    } as unknown as pg.Pool;
    const holds = await holdsOfReservation(spy, id);
    expect(holds.map((h) => `${h.holdId} ${h.productId} ${h.stockSize}`).sort()).toEqual(
      [`${id}#0 ${f.general} null`, `${id}#1 ${f.sized} M`, `${id}#2 ${f.split} M`, `${id}#2 ${f.split} S`].sort(),
    );
    const client = await host.infra.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [id])).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      await client.query('ROLLBACK');
      // The index is searched by the reservation id (an Index Cond), not merely read through in full.
      expect(plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) events_stock_reservation/);
      expect(plan).toMatch(/Index Cond: \(split_part\(\(data ->> 'reservationId'::text\), '#'::text, 1\) = /);
    } finally {
      client.release();
    }
    await host.catalog.inventory.release(id);
  });
});

describe('lines of one product and size in one reservation are checked together (issue 27 item 7)', () => {
  const line = (productId: string, size: string | null, quantity: number) => ({
    productId,
    size,
    color: null,
    quantity,
  });

  it('names what the lines ask for together and what the size has, not 0 after the first line', async () => {
    const r = await host.catalog.inventory.reserve(randomUUID(), [line(f.sized, 'M', 6), line(f.sized, 'M', 5)]);
    expect(r).toEqual({
      ok: false,
      title: 'Size not available',
      message: 'Reservation Kurta - Size M only has 10 item(s) available. You requested 11.',
    });
    // Nothing stays held; lines that fit together are all held.
    expect((await stock())[stockStreamId(f.sized, 'M')]!.available).toBe(10);
    const ok = await host.catalog.inventory.reserve(randomUUID(), [line(f.sized, 'M', 6), line(f.sized, 'M', 4)]);
    expect(ok.ok).toBe(true);
    expect((await stock())[stockStreamId(f.sized, 'M')]!.available).toBe(0);
  });

  it('the same for the general quantity and for lines with no size split over the sizes', async () => {
    expect(
      await host.catalog.inventory.reserve(randomUUID(), [line(f.general, null, 15), line(f.general, null, 6)]),
    ).toMatchObject({ ok: false, message: 'Reservation Dupatta only has 20 item(s) available. You requested 21.' });
    expect(
      await host.catalog.inventory.reserve(randomUUID(), [line(f.split, null, 15), line(f.split, null, 6)]),
    ).toMatchObject({ ok: false, message: 'Reservation Sherwani only has 20 item(s) available. You requested 21.' });
    const split = await host.catalog.inventory.reserve(randomUUID(), [line(f.split, null, 15), line(f.split, null, 5)]);
    expect(split.ok).toBe(true);
    const after = await stock();
    expect([after[stockStreamId(f.split, 'S')]!.available, after[stockStreamId(f.split, 'M')]!.available]).toEqual([
      0, 0,
    ]);
  });
});
