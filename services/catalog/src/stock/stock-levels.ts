import { ValidationError } from '@shop/shared/errors/errors';
import { decideStock, evolveStock, liveHolds, type StockCommand, type StockState } from './decider.ts';
import type { StockEvent } from './events.ts';

/** What the admin says about a product's stock (create or edit). */
export interface StockInput {
  /** General quantity (units sold without sizes). */
  quantity?: number;
  /** Stock per size label, in display order. */
  sizeQuantities?: Array<[string, number]>;
}

/** One stock's level as the admin's edit sets it: on sale (`available` units), or off sale (see below). */
export type StockLevel = [size: string | null, available: number, onSale: boolean];

/**
 * The stock levels to set for what the admin asked, with one truth of units per product. A product whose
 * size map holds any units is sold by size: its total is the sum of its sizes and the general stock is off
 * sale (the admin's `quantity` is then only the form's echo of that sum). A product whose sizes hold nothing
 * is sold from the general quantity and its sizes are off sale. Sizes dropped from the map are off sale.
 * Pure: `sizesHaveStockNow` says whether the product's current sizes hold units (only asked when the
 * command names no sizes).
 */
export function stockLevelsFor(
  stock: StockInput,
  previousSizeLabels: readonly string[],
  sizesHaveStockNow: boolean,
): StockLevel[] {
  if (!stock.sizeQuantities) {
    if (stock.quantity === undefined) return [];
    if (sizesHaveStockNow)
      throw new ValidationError('This product is stocked by size: send sizeQuantities to change its stock');
    return [[null, stock.quantity, true]];
  }
  const sizes = stock.sizeQuantities;
  const bySize = sizes.reduce((sum, [, n]) => sum + n, 0) > 0;
  const levels: StockLevel[] = [];
  if (bySize) levels.push([null, 0, false]);
  else if (stock.quantity !== undefined) levels.push([null, stock.quantity, true]);
  for (const [size, n] of sizes) levels.push([size, n, bySize]);
  const kept = new Set(sizes.map(([s]) => s));
  for (const size of previousSizeLabels) if (!kept.has(size)) levels.push([size, 0, false]);
  return levels;
}

/**
 * The events that set the `asked` levels on the product's stocks (`states`: each stock's state now, by size, null
 * for the general stock; evolved in place), keeping one truth of units across a change of stock mode while
 * checkouts hold units. The admin's level is what is on sale now; units held then stay held:
 * - on a stock still on sale, a hold released later comes back on sale there (as it always did);
 * - a switch from sizes to one count moves the sizes' live holds to the general stock (a unit of any size
 *   is a unit of the count): paid, a sale; released, back into the count (an edit that names no count
 *   keeps the count's units on sale as they are);
 * - any other stock taken off sale (the general stock of a product now sold by size, a size dropped) keeps
 *   its live holds apart: paid, a sale; released, retired, never on sale in a size or count the admin did
 *   not set (its level is minus the units held, back to 0 when they are all settled).
 */
export function stockEventsFor(
  productId: string,
  asked: readonly StockLevel[],
  states: ReadonlyMap<string | null, StockState>,
  now: Date,
): Map<string | null, StockEvent[]> {
  const out = new Map<string | null, StockEvent[]>();
  const run = (size: string | null, command: StockCommand) => {
    const state = states.get(size);
    if (!state) throw new Error(`No state loaded for the stock of ${size ?? 'the general quantity'}`);
    const events = decideStock(command, state);
    for (const e of events) evolveStock(state, e);
    out.set(size, [...(out.get(size) ?? []), ...events]);
  };
  const set = ([size, available, onSale]: StockLevel) =>
    run(size, { type: 'SetStockLevel', data: { productId, size, available, now, offSale: !onSale } });

  const bySize = asked.some(([size, , onSale]) => size !== null && onSale);
  const generalState = states.get(null);
  // Sold by one count now, and the admin named no count: the count is what it has on sale now.
  const levels: readonly StockLevel[] =
    !bySize && asked.length > 0 && !asked.some(([size]) => size === null) && generalState
      ? [[null, Math.max(0, generalState.available), true], ...asked]
      : asked;
  const countTakesHolds = !bySize && levels.some(([size]) => size === null);
  const closing = levels.filter(([size, , onSale]) => size !== null && !onSale);
  for (const level of closing) set(level);
  if (countTakesHolds) {
    // One hold id may sit on several sizes (a line with no size split over them): taken over as one.
    const moving = new Map<string, { quantity: number; expiresAt?: string; from: string[] }>();
    for (const [size] of closing)
      for (const [id, hold] of liveHolds(states.get(size)!)) {
        const m = moving.get(id) ?? { quantity: 0, from: [], ...(hold.expiresAt ? { expiresAt: hold.expiresAt } : {}) };
        m.quantity += hold.quantity;
        m.from.push(size!);
        moving.set(id, m);
      }
    for (const [reservationId, m] of moving) {
      const there = generalState?.holds.get(reservationId);
      if (there && (there.status === 'reserved' || there.status === 'moved')) continue; // stays apart, retired if released
      run(null, {
        type: 'TakeOverHold',
        data: { productId, size: null, reservationId, quantity: m.quantity, now, expiresAt: m.expiresAt },
      });
      for (const size of m.from)
        run(size, { type: 'MoveHold', data: { productId, size, reservationId, toSize: null, now } });
    }
  }
  for (const level of levels) if (!closing.includes(level)) set(level);
  return out;
}
