import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RecordedEvent } from '../eventstore/types.ts';
import { defineReplayFold } from './fold.ts';
import { KeyedRows } from './keyed-rows.ts';
import { StockLevels } from './stock-levels.ts';

const rowsOf = (t: { folded(): { rows: Iterable<readonly unknown[]> } }) => [...t.folded().rows];

describe('KeyedRows', () => {
  it('inserts a row by column or by values unless its key is held, in first-insert order', () => {
    const users = new KeyedRows('accounts.users', ['id', 'name', 'is_admin']);
    expect(users.insert('u1', { id: 'u1', name: 'Asha', is_admin: false })).toBe(true);
    expect(users.insert('u2', ['u2', 'Ravi', true])).toBe(true);
    expect(users.insert('u1', ['u1', 'Other', true])).toBe(false);
    expect(users.folded()).toMatchObject({ table: 'accounts.users', columns: ['id', 'name', 'is_admin'] });
    expect(rowsOf(users)).toEqual([
      ['u1', 'Asha', false],
      ['u2', 'Ravi', true],
    ]);
  });

  it('updates, adds to, replaces and deletes held rows only; reads a column', () => {
    const coupons = new KeyedRows('checkout.coupons', ['id', 'code', 'uses', 'updated_at']);
    coupons.insert('c1', ['c1', 'A', 0, 't0']);
    coupons.insert('c2', ['c2', 'B', 0, 't0']);
    expect(coupons.update('c1', { code: 'A2', updated_at: 't1' })).toBe(true);
    expect(coupons.update('missing', { code: 'X' })).toBe(false);
    expect(coupons.add('c1', 'uses', 2)).toBe(true);
    expect(coupons.add('c1', 'uses', -1)).toBe(true);
    expect(coupons.add('missing', 'uses', 1)).toBe(false);
    expect(coupons.updateColumns('c2', ['code', 'updated_at'], ['B2', 't2'])).toBe(true);
    expect(coupons.get('c1', 'uses')).toBe(1);
    expect(coupons.get('missing', 'uses')).toBeUndefined();
    coupons.put('c1', ['c1', 'A3', 9, 't3']); // in its place, not moved to the end
    expect(rowsOf(coupons)).toEqual([
      ['c1', 'A3', 9, 't3'],
      ['c2', 'B2', 0, 't2'],
    ]);
    expect(coupons.delete('c1')).toBe(true);
    expect(coupons.delete('c1')).toBe(false);
    expect(coupons.has('c1')).toBe(false);
    expect(rowsOf(coupons)).toEqual([['c2', 'B2', 0, 't2']]);
  });

  it('refuses a column it does not hold and a row of the wrong width', () => {
    const t = new KeyedRows('s.t', ['id', 'n']);
    t.insert('a', ['a', 1]);
    expect(() => t.updateColumns('a', ['nope'], [1])).toThrow('s.t has no column nope');
    expect(() => t.insert('b', ['b'])).toThrow('a row of 1 values for 2 columns');
    // @ts-expect-error: a column it does not hold
    expect(() => t.update('a', { nope: 1 })).toThrow();
  });
});

describe('StockLevels', () => {
  it('sets and moves levels per product and size, and folds them into (product_id, size, available)', () => {
    const levels = new StockLevels('catalog.stock_levels');
    levels.set('p1', '', 4);
    levels.add('p1', 'M', -2);
    levels.add('p1', 'M', 5);
    levels.set('p2', 'S', 1);
    expect(levels.available('p1', 'M')).toBe(3);
    expect(levels.available('p1', 'XL')).toBe(0);
    expect(levels.folded()).toEqual({
      table: 'catalog.stock_levels',
      columns: ['product_id', 'size', 'available'],
      rows: [
        ['p1', '', 4],
        ['p1', 'M', 3],
        ['p2', 'S', 1],
      ],
    });
    levels.delete('p1');
    expect(rowsOf(levels)).toEqual([['p2', 'S', 1]]);
  });

  it('counts units as greatest(0, general) plus each offered size, never below 0; sizes not offered count for nothing', () => {
    const levels = new StockLevels('s.t');
    expect(levels.units('none', ['M'])).toBe(0);
    levels.set('p', '', -3);
    levels.set('p', 'M', 2);
    levels.set('p', 'L', -1);
    levels.set('p', 'XL', 7);
    expect(levels.units('p', ['M', 'L'])).toBe(2);
    expect(levels.units('p', ['M', 'M', 'XL'])).toBe(9);
    levels.set('p', '', 5);
    expect(levels.units('p', [])).toBe(5);
  });
});

describe('defineReplayFold', () => {
  type Added = { type: 'Added'; data: { id: string; n: number } };
  type Removed = { type: 'Removed'; data: { id: string } };
  const event = (type: string, data: object, streamId = 's-1'): RecordedEvent => ({
    globalPosition: 1n,
    transactionId: 1n,
    streamId,
    streamVersion: 1,
    eventId: 'e',
    type,
    schemaVersion: 1,
    data,
    metadata: { occurredAt: '2026-01-01T00:00:00.000Z' },
    source: 's',
  });

  it("gives each event's data, typed, and the recorded event to its type's handler; tables() answers every table", () => {
    const items = new KeyedRows('s.items', ['id', 'n', 'stream']);
    const removed = new KeyedRows('s.removed', ['id']);
    const fold = defineReplayFold<Added | Removed>({
      on: {
        Added(d, e) {
          expectTypeOf(d).toEqualTypeOf<{ id: string; n: number }>();
          items.insert(d.id, [d.id, d.n, e.streamId]);
        },
        Removed(d) {
          items.delete(d.id);
          removed.insert(d.id, [d.id]);
        },
      },
      tables: [items, removed],
    });
    fold.apply(event('Added', { id: 'a', n: 1 }, 's-a'));
    fold.apply(event('Added', { id: 'b', n: 2 }, 's-b'));
    fold.apply(event('Removed', { id: 'a' }));
    fold.apply(event('Unknown', { id: 'b' })); // passed over
    fold.apply(event('hasOwnProperty', {})); // not a handler either
    expect(fold.tables().map((t) => ({ table: t.table, rows: [...t.rows] }))).toEqual([
      { table: 's.items', rows: [['b', 2, 's-b']] },
      { table: 's.removed', rows: [['a']] },
    ]);
  });
});
