import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { StockEvent } from './events.ts';
import {
  decideStock,
  evolveStock,
  heldUnits,
  initialStockState,
  InsufficientStockError,
  type StockCommand,
  type StockState,
} from './decider.ts';
import { stockEventsFor, stockLevelsFor, type StockLevel } from './stock-levels.ts';

const now = new Date('2026-11-27T10:00:00Z');
const at = now.toISOString();
const given = deciderSpec({ decide: decideStock, evolve: evolveStock, initialState: initialStockState });
const general = { productId: 'p1', size: null };
const level = (available: number): StockEvent => ({ type: 'StockLevelSet', data: { ...general, available, at } });
const held = (reservationId: string, quantity: number): StockEvent => ({
  type: 'StockReserved',
  data: { ...general, reservationId, quantity, at, expiresAt: '2026-11-27T10:10:00Z' },
});
const offSale: StockCommand = { type: 'SetStockLevel', data: { ...general, available: 0, now, offSale: true } };
const release = (reservationId: string): StockCommand => ({
  type: 'ReleaseStock',
  data: { ...general, reservationId, reason: 'expired', now },
});
const commit = (reservationId: string): StockCommand => ({
  type: 'CommitStock',
  data: { ...general, reservationId, now },
});

describe('stock decider: a stock taken off sale while checkouts hold units', () => {
  it('sets the level to minus the units still held, so nothing is on sale', () => {
    given([level(5), held('g#0', 3)])
      .when(offSale)
      .then([{ type: 'StockLevelSet', data: { ...general, available: -3, at } }]);
    // Again with the same holds: nothing to record.
    given([level(5), held('g#0', 3), { type: 'StockLevelSet', data: { ...general, available: -3, at } }])
      .when(offSale)
      .then([]);
    given([level(5)])
      .when({ type: 'SetStockLevel', data: { ...general, available: 2, now, offSale: true } })
      .then('no units on sale');
  });

  it('a hold released there retires its units: the stock is back at 0, never on sale', () => {
    const history = [
      level(5),
      held('g#0', 3),
      ...given([level(5), held('g#0', 3)])
        .when(offSale)
        .events(),
    ];
    const rel = given(history)
      .when(release('g#0'))
      .thenMatches([{ type: 'StockReleased', data: { quantity: 3 } }]);
    expect(given([...history, ...rel]).state().available).toBe(0);
    given([...history, ...rel])
      .when({ type: 'ReserveStock', data: { ...general, reservationId: 'h#0', quantity: 1, now } })
      .then(InsufficientStockError);
    // Paid after it lapsed: the units are not there to take again (the payment is refunded).
    given([...history, ...rel])
      .when(commit('g#0'))
      .then(InsufficientStockError);
  });

  it('a hold paid for there is still a sale', () => {
    const history = [
      level(5),
      held('g#0', 3),
      ...given([level(5), held('g#0', 3)])
        .when(offSale)
        .events(),
    ];
    given(history)
      .when(commit('g#0'))
      .then([{ type: 'StockCommitted', data: { ...general, reservationId: 'g#0', quantity: 3, at } }]);
  });
});

describe('stock decider: a hold moved to another stock of the product', () => {
  const sizeA = { productId: 'p1', size: 'A' };
  const heldA: StockEvent = { type: 'StockReserved', data: { ...sizeA, reservationId: 'a#0', quantity: 2, at } };
  const levelA: StockEvent = { type: 'StockLevelSet', data: { ...sizeA, available: 2, at } };

  it('the stock it leaves records the move and then neither releases nor sells it', () => {
    const moved = given([levelA, heldA])
      .when({ type: 'MoveHold', data: { ...sizeA, reservationId: 'a#0', toSize: null, now } })
      .then([
        {
          type: 'StockReleased',
          data: {
            ...sizeA,
            reservationId: 'a#0',
            quantity: 2,
            reason: 'moved to the general stock',
            at,
            movedTo: { size: null },
          },
        },
      ]);
    const after = [levelA, heldA, ...moved];
    given(after)
      .when({ type: 'ReleaseStock', data: { ...sizeA, reservationId: 'a#0', reason: 'expired', now } })
      .then([]);
    given(after)
      .when({ type: 'CommitStock', data: { ...sizeA, reservationId: 'a#0', now } })
      .then([]);
    given(after)
      .when({ type: 'MoveHold', data: { ...sizeA, reservationId: 'a#0', toSize: null, now } })
      .then([]);
  });

  it('the stock that takes it over holds it without asking for its own units, and refuses a hold it has', () => {
    const taken = given([level(0)])
      .when({ type: 'TakeOverHold', data: { ...general, reservationId: 'a#0', quantity: 2, now } })
      .then([{ type: 'StockReserved', data: { ...general, reservationId: 'a#0', quantity: 2, at } }]);
    given([level(0), ...taken])
      .when({ type: 'TakeOverHold', data: { ...general, reservationId: 'a#0', quantity: 2, now } })
      .then(/already on this stock/);
    // Released, its units come back into the count; paid, a sale.
    const rel = given([level(0), ...taken])
      .when(release('a#0'))
      .events();
    expect(given([level(0), ...taken, ...rel, level(1)]).state().available).toBe(1);
    expect(given([level(0), ...taken, level(1), ...rel]).state().available).toBe(3);
  });
});

/** Each stock's state after `history`, by size (null: general). */
function statesOf(history: Record<string, StockEvent[]>): Map<string | null, StockState> {
  return new Map(
    Object.entries(history).map(([size, events]) => [
      size === '' ? null : size,
      events.reduce(evolveStock, initialStockState()),
    ]),
  );
}
const sized = (size: string | null, e: StockEvent): StockEvent => ({ ...e, data: { ...e.data, size } }) as StockEvent;

describe('stockEventsFor: one truth of units across a change of stock mode', () => {
  it('one count to sizes: the general hold stays apart on the general stock (off sale), the sizes get what the admin set', () => {
    // {quantity: 5}, a guest holds 3 with no size, then the admin sets {M: 1}.
    const states = statesOf({ '': [level(5), held('g#0', 3)], M: [] });
    const levels = stockLevelsFor({ sizeQuantities: [['M', 1]] }, [], false);
    const events = stockEventsFor('p1', levels, states, now);
    expect(events.get(null)).toEqual([{ type: 'StockLevelSet', data: { ...general, available: -3, at } }]);
    expect(events.get('M')).toEqual([
      { type: 'StockLevelSet', data: { productId: 'p1', size: 'M', available: 1, at } },
    ]);
    // The hold lapses: nothing comes on sale in the general stock.
    const g = states.get(null)!;
    for (const e of decideStock(release('g#0'), g)) evolveStock(g, e);
    expect(g.available).toBe(0);
  });

  it('sizes to one count: the sizes’ holds move to the count (one hold per id), released back into it', () => {
    // {A: 2, B: 2}, a line with no size holds one of each (one hold id), a line of A holds the other A.
    const states = statesOf({
      '': [level(0)],
      A: [sized('A', level(2)), sized('A', held('x#0', 1)), sized('A', held('x#1', 1))],
      B: [sized('B', level(2)), sized('B', held('x#0', 1))],
    });
    const levels: StockLevel[] = stockLevelsFor({ quantity: 1, sizeQuantities: [] }, ['A', 'B'], false);
    expect(levels).toEqual([
      [null, 1, true],
      ['A', 0, false],
      ['B', 0, false],
    ]);
    const events = stockEventsFor('p1', levels, states, now);
    expect(
      events.get(null)?.map((e) => [e.type, 'reservationId' in e.data ? e.data.reservationId : '', e.data]),
    ).toMatchObject([
      ['StockReserved', 'x#0', { quantity: 2, expiresAt: '2026-11-27T10:10:00Z' }],
      ['StockReserved', 'x#1', { quantity: 1 }],
      ['StockLevelSet', '', { available: 1 }],
    ]);
    expect(states.get('A')).toMatchObject({ available: 0 });
    expect(heldUnits(states.get('A')!)).toBe(0);
    expect(states.get('B')).toMatchObject({ available: 0 });
    const g = states.get(null)!;
    expect([g.available, heldUnits(g)]).toEqual([1, 3]);
    for (const id of ['x#0', 'x#1']) for (const e of decideStock(release(id), g)) evolveStock(g, e);
    expect(g.available).toBe(4);
  });

  it('a size dropped while the product stays sold by size keeps its holds apart (retired if released)', () => {
    const states = statesOf({ '': [level(0)], A: [sized('A', level(2)), sized('A', held('y#0', 2))], B: [] });
    const events = stockEventsFor('p1', stockLevelsFor({ sizeQuantities: [['B', 3]] }, ['A'], false), states, now);
    expect(events.get('A')).toMatchObject([{ type: 'StockLevelSet', data: { available: -2 } }]);
    expect(events.get(null)).toEqual([]);
  });

  it('sizes emptied with no count named: the count keeps what it has on sale and takes the sizes’ holds', () => {
    const states = statesOf({ '': [level(2)], A: [sized('A', level(1)), sized('A', held('z#0', 1))] });
    const events = stockEventsFor('p1', stockLevelsFor({ sizeQuantities: [['A', 0]] }, ['A'], false), states, now);
    expect(events.get(null)).toMatchObject([
      { type: 'StockReserved', data: { reservationId: 'z#0', quantity: 1 } },
      { type: 'StockLevelSet', data: { available: 2 } },
    ]);
    expect(events.get('A')).toMatchObject([
      { type: 'StockLevelSet', data: { available: -1 } },
      { type: 'StockReleased', data: { reservationId: 'z#0', movedTo: { size: null } } },
    ]);
    expect([states.get(null)!.available, states.get('A')!.available]).toEqual([2, 0]);
  });

  it('without holds it sets the same levels as before (replay of older logs unchanged)', () => {
    const states = statesOf({ '': [level(5)], M: [] });
    const events = stockEventsFor('p1', stockLevelsFor({ sizeQuantities: [['M', 1]] }, [], false), states, now);
    expect([...events.values()].flat().map((e) => e.data)).toMatchObject([{ available: 0 }, { available: 1 }]);
  });
});
