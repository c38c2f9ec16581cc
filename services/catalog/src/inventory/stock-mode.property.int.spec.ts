import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { ReserveLine } from '@shop/shared/contracts/inventory';
import { createRng } from '@shop/test-support/prng';
import { findProduct } from '../read-models/products/products-queries.ts';
import { replayProjections } from '@shop/shared/replay/projection-replay';
import { PRODUCTS_PROJECTION, productsProjection } from '../read-models/products/products-projection.ts';
import { stockHoldsProjection } from '../read-models/stock-holds/stock-holds-projection.ts';
import { startCatalogTestHost, type CatalogTestHost } from '../testing/catalog-test-host.ts';
import { evolveStock, heldUnits, initialStockState } from '../stock/decider.ts';
import { stockStreamId, type StockEvent } from '../stock/events.ts';
import { stockLevelsFor, type StockInput, type StockLevel } from '../stock/stock-levels.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 27_002);
const SIZES = ['S', 'M', 'L'] as const;

let host: CatalogTestHost;
let log: PostgresEventStore;
beforeAll(async () => {
  host = await startCatalogTestHost();
  log = new PostgresEventStore(host.infra.pool, 'catalog');
});
afterAll(() => host.stop());

/**
 * One stock of a product (a size, or '' for the general count) as the documented rule says it must be
 * (stockEventsFor): `admitted` is what the admin set, by the rule's definition: the admin's level is what
 * is on sale now, plus the units held then (they stay held, taken across when sizes become one count);
 * sales and holds take from it, a release gives back to it, on sale again or retired on a stock off sale.
 */
interface Stock {
  onSale: boolean;
  available: number;
  holds: Map<string, number>;
  sold: number;
  retired: number;
  admitted: number;
}
const held = (s: Stock) => [...s.holds.values()].reduce((a, b) => a + b, 0);

/** The oracle: the rule written out again, independently of the decider and stockEventsFor. */
class Model {
  readonly stocks = new Map<string, Stock>();
  labels: string[] = [];
  /** Stocks taken off sale while holding units (their holds carried apart, or moved to the count). */
  carried = 0;

  stock(size: string | null): Stock {
    const key = size ?? '';
    let s = this.stocks.get(key);
    if (!s)
      this.stocks.set(key, (s = { onSale: false, available: 0, holds: new Map(), sold: 0, retired: 0, admitted: 0 }));
    return s;
  }

  set(input: StockInput, levels: StockLevel[]): void {
    const bySize = levels.some(([size, , onSale]) => size !== null && onSale);
    const all = [...levels];
    if (!bySize && all.length > 0 && !all.some(([size]) => size === null))
      all.unshift([null, this.stock(null).onSale ? this.stock(null).available : 0, true]);
    const withdraw = (s: Stock) => {
      if (s.onSale && held(s) > 0) this.carried += 1;
      s.admitted -= s.available;
      s.available = 0;
      s.onSale = false;
    };
    const closing = all.filter(([size, , onSale]) => size !== null && !onSale);
    for (const [size] of closing) withdraw(this.stock(size));
    if (!bySize && all.some(([size]) => size === null)) {
      const general = this.stock(null);
      const moving = new Map<string, Array<[string, number]>>();
      for (const [size] of closing)
        for (const [id, q] of this.stock(size).holds) moving.set(id, [...(moving.get(id) ?? []), [size!, q]]);
      for (const [id, parts] of moving) {
        if (general.holds.has(id)) continue;
        for (const [size, q] of parts) {
          const from = this.stock(size);
          from.holds.delete(id);
          from.admitted -= q;
          general.holds.set(id, (general.holds.get(id) ?? 0) + q);
          general.admitted += q;
        }
      }
    }
    for (const [size, n, onSale] of all) {
      if (closing.some(([c]) => c === size)) continue;
      const s = this.stock(size);
      if (!onSale) withdraw(s);
      else {
        s.admitted += n - s.available;
        s.available = n;
        s.onSale = true;
      }
    }
    if (input.sizeQuantities) this.labels = input.sizeQuantities.map(([s]) => s);
  }

  /** A hold the shop took: only from a stock on sale, only units it has. */
  hold(stockSize: string | null, holdId: string, quantity: number, context: string): void {
    const s = this.stock(stockSize);
    expect(s.onSale, `${context}: held ${quantity} from ${stockSize ?? 'the count'}, which is off sale`).toBe(true);
    expect(s.available, `${context}: held ${quantity} from ${stockSize ?? 'the count'}`).toBeGreaterThanOrEqual(
      quantity,
    );
    s.available -= quantity;
    s.holds.set(holdId, (s.holds.get(holdId) ?? 0) + quantity);
  }

  settle(reservationId: string, paid: boolean): void {
    for (const s of this.stocks.values())
      for (const [id, q] of s.holds) {
        if (!id.startsWith(`${reservationId}#`)) continue;
        s.holds.delete(id);
        if (paid) s.sold += q;
        else if (s.onSale) s.available += q;
        else s.retired += q;
      }
  }
}

/** Each stock stream of the product folded from the catalog's log (the truth), and its units sold. */
async function streams(productId: string, sizes: readonly (string | null)[]) {
  const out = new Map<string, { raw: number; held: number; sold: number; version: number }>();
  for (const size of sizes) {
    const state = initialStockState();
    let sold = 0;
    let version = 0;
    for (const e of await log.readStream(stockStreamId(productId, size))) {
      evolveStock(state, { type: e.type, data: e.data } as StockEvent);
      if (e.type === 'StockCommitted') sold += (e.data as { quantity: number }).quantity;
      else version = e.streamVersion; // the products read model records every stock event but a sale's
    }
    out.set(size ?? '', { raw: state.available, held: heldUnits(state), sold, version });
  }
  return out;
}

describe('stock property: changes of stock mode while checkouts hold units', () => {
  it(`available + held + sold (+ retired) is what the admin set, by size and in all, after every step (seed ${SEED})`, async () => {
    const rnd = createRng(SEED);
    const all: Array<string | null> = [null, ...SIZES];
    let totalSold = 0;
    let carried = 0;
    let retired = 0;
    for (let round = 0; round < 8; round++) {
      const model = new Model();
      const randomStock = (): StockInput => {
        // As the admin form sends it: its size rows (maybe none, maybe all at 0) and the quantity typed.
        const rows = SIZES.filter(() => rnd.chance(0.6)).map((s) => [s, rnd.int(0, 3)] as [string, number]);
        if (rnd.chance(0.3)) for (const row of rows) row[1] = 0;
        const quantity = rnd.int(0, 6);
        if (rnd.chance(0.1)) return { sizeQuantities: rows };
        return { quantity, sizeQuantities: rows };
      };
      const first = randomStock();
      const created: Required<StockInput> = { quantity: first.quantity ?? 0, sizeQuantities: first.sizeQuantities! };
      const productId = await host.createProduct(`Mode ${round}`, created);
      model.set(created, stockLevelsFor(created, [], false));
      const live: string[] = [];
      let n = 0;

      for (let step = 0; step < 40; step++) {
        const op = rnd.weighted<'set' | 'hold' | 'pay' | 'lapse'>([
          [2, 'set'],
          [4, 'hold'],
          [2, 'pay'],
          [2, 'lapse'],
        ]);
        let did = op;
        if (op === 'set') {
          const stock = randomStock();
          const written = await host.catalog.catalog.updateProduct(productId, {}, stock);
          model.set(stock, stockLevelsFor(stock, model.labels, false));
          for (const w of written)
            expect(
              await host.infra.context.waitForProjection({ schema: 'catalog', consumer: PRODUCTS_PROJECTION, ...w }),
            ).toBe(true);
          did = `set ${JSON.stringify(stock)}` as typeof op;
        } else if (op === 'hold') {
          const id = `m${round}-${n++}`;
          const lines: ReserveLine[] = Array.from({ length: rnd.int(1, 2) }, () => ({
            productId,
            size: rnd.pick<string | null>([null, null, 'XXL', ...model.labels]),
            color: null,
            quantity: rnd.int(1, 3),
          }));
          const r = await host.catalog.inventory.reserve(id, lines);
          if (r.ok) {
            for (const l of r.lines) model.hold(l.stockSize, l.holdId, l.quantity, `round ${round} step ${step}`);
            live.push(id);
          }
          did =
            `hold ${JSON.stringify(lines.map((l) => [l.size, l.quantity]))}: ${r.ok ? 'held' : r.message}` as typeof op;
        } else if (live.length > 0) {
          const id = live.splice(rnd.int(0, live.length - 1), 1)[0]!;
          if (op === 'pay') await host.catalog.inventory.commit(id);
          else await host.catalog.inventory.release(id, 'expired: the checkout lapsed');
          model.settle(id, op === 'pay');
        }

        // After every step: the identity, in every stock and in all, and the shop agrees with the rule.
        const context = `round ${round} step ${step} (${did})`;
        let sum = 0;
        let admitted = 0;
        for (const [size, s] of model.stocks) {
          expect(s.available + held(s) + s.sold + s.retired, `${context}: stock '${size}'`).toBe(s.admitted);
          expect(s.sold, `${context}: stock '${size}' sold beyond what was set`).toBeLessThanOrEqual(s.admitted);
          sum += s.available + held(s) + s.sold + s.retired;
          admitted += s.admitted;
        }
        expect(sum, context).toBe(admitted);
        const truth = await streams(productId, all);
        for (const size of all) {
          const s = model.stock(size);
          const t = truth.get(size ?? '')!;
          expect(
            { available: Math.max(0, t.raw), held: t.held, sold: t.sold },
            `${context}: stock '${size ?? ''}'`,
          ).toEqual({ available: s.available, held: held(s), sold: s.sold });
          // On sale, the level is what is for sale; off sale, at most minus what its live holds hold, so
          // their release never puts a unit on sale (a sale there leaves it lower still).
          if (s.onSale) expect(t.raw, `${context}: level of stock '${size ?? ''}'`).toBe(s.available);
          else expect(t.raw, `${context}: level of off-sale stock '${size ?? ''}'`).toBeLessThanOrEqual(-t.held);
          if (t.version > 0)
            expect(
              await host.infra.context.waitForProjection({
                schema: 'catalog',
                consumer: PRODUCTS_PROJECTION,
                streamId: stockStreamId(productId, size),
                version: t.version,
              }),
            ).toBe(true);
        }
        const shown = (await findProduct(host.infra.pool, productId))!;
        const onSale = (size: string | null) => (model.stock(size).onSale ? model.stock(size).available : 0);
        expect(
          { quantity: shown.quantity, sizeQuantities: shown.sizeQuantities },
          `${context}: what the shop shows`,
        ).toEqual({
          quantity: onSale(null) + model.labels.reduce((t, l) => t + onSale(l), 0),
          sizeQuantities: Object.fromEntries(model.labels.map((l) => [l, model.stock(l).available])),
        });
      }
      totalSold += [...model.stocks.values()].reduce((t, s) => t + s.sold, 0);
      retired += [...model.stocks.values()].reduce((t, s) => t + s.retired, 0);
      carried += model.carried;
    }
    // Replay stays identical: the stock read models rebuilt from this log, through handle() and through the
    // replay's in-memory folds, are row for row the ones the live projections wrote step by step.
    for (const folds of [false, true]) {
      const reports = await replayProjections({
        pool: host.infra.pool,
        verify: true,
        targets: [productsProjection(), stockHoldsProjection].map((consumer) => ({
          consumer,
          tables: consumer.readModel.tables,
          ...(folds ? { fold: () => consumer.readModel.fold() } : {}),
        })),
      });
      expect(
        reports.map((r) => [r.projection, r.identical]),
        `replay ${folds ? 'with folds' : 'through handle()'}`,
      ).toEqual([
        [PRODUCTS_PROJECTION, true],
        [stockHoldsProjection.name, true],
      ]);
    }
    // The run did what it is about: sales happened, holds were carried across changes of mode, some retired.
    expect({ sold: totalSold > 0, carried: carried > 0, retired: retired > 0 }).toEqual({
      sold: true,
      carried: true,
      retired: true,
    });
  });
});
