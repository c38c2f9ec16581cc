import { describe, expect, it } from 'vitest';
import { RowTable, table } from './projection-rows.ts';

const coupons = table('checkout.coupons', { key: ['id'], columns: ['id', 'code', 'uses'] });
const levels = table('catalog.stock_levels', {
  key: ['product_id', 'size'],
  columns: ['product_id', 'size', 'available'],
});
const rows = (t: RowTable) => [...t.values()];

describe('RowTable in memory (replay)', () => {
  it('inserts unless the key is held, updates, adds to, replaces and deletes held rows only', () => {
    const t = new RowTable(coupons, 'memory');
    expect(t.insert({ id: 'c1', code: 'A', uses: 0 })).toBe(true);
    expect(t.insert({ id: 'c1', code: 'B', uses: 0 })).toBe(false);
    expect(t.update('c1', { code: 'A2' })).toBe(true);
    expect(t.update('missing', { code: 'X' })).toBe(false);
    expect(t.add('c1', 'uses', 2)).toBe(true);
    expect(t.add('missing', 'uses', 1)).toBe(false);
    t.put({ id: 'c2', code: 'C', uses: 5 });
    expect(t.get('c1')).toEqual({ id: 'c1', code: 'A2', uses: 2 });
    expect(rows(t)).toEqual([
      ['c1', 'A2', 2],
      ['c2', 'C', 5],
    ]);
    expect(t.delete('c1')).toBe(true);
    expect(t.delete('c1')).toBe(false);
    expect(rows(t)).toEqual([['c2', 'C', 5]]);
  });

  it('refuses a column it does not hold', () => {
    const t = new RowTable(coupons, 'memory');
    t.insert({ id: 'c1', code: 'A', uses: 0 });
    // @ts-expect-error: a column it does not hold
    expect(() => t.update('c1', { nope: 1 })).toThrow('checkout.coupons has no column nope');
  });

  it('keys a row by several columns, and reads or deletes the rows of a first key value', () => {
    const t = new RowTable(levels, 'memory');
    t.put({ product_id: 'p1', size: '', available: 4 });
    t.put({ product_id: 'p1', size: 'M', available: 2 });
    t.put({ product_id: 'p2', size: 'M', available: 1 });
    expect(t.add(['p1', 'M'], 'available', -1)).toBe(true);
    expect(t.rowsOf('p1').map((r) => [r.size, r.available])).toEqual([
      ['', 4],
      ['M', 1],
    ]);
    expect(t.deleteRowsOf('p1')).toBe(2);
    expect(rows(t)).toEqual([['p2', 'M', 1]]);
  });

  it('finds rows by a lookup column, lower-cased, as they are now', () => {
    const users = new RowTable(
      table('accounts.users', { key: ['id'], columns: ['id', 'email'], lookup: { column: 'email', lower: true } }),
      'memory',
    );
    users.insert({ id: 'u1', email: 'Asha@Example.in' });
    expect(users.rowsWhere('asha@example.in').map((r) => r.id)).toEqual(['u1']);
    users.update('u1', { email: 'new@example.in' });
    expect(users.rowsWhere('asha@example.in')).toEqual([]);
    expect(users.rowsWhere('NEW@example.in').map((r) => r.id)).toEqual(['u1']);
  });
});

describe('RowTable live', () => {
  it('records a read of a group it has not loaded as a miss, and finds nothing there', () => {
    const t = new RowTable(levels, 'live');
    expect(t.get(['p1', 'M'])).toBeUndefined();
    expect(t.rowsOf('p2')).toEqual([]);
    expect([...t.misses]).toEqual(['p1', 'p2']);
  });

  it('changes loaded rows without touching them, and answers what to delete and what to write', () => {
    const t = new RowTable(levels, 'live');
    const loaded = [
      { product_id: 'p1', size: '', available: 4 },
      { product_id: 'p1', size: 'M', available: 2 },
    ];
    t.load(['p1'], loaded);
    expect(t.add(['p1', 'M'], 'available', 3)).toBe(true);
    expect(t.delete(['p1', ''])).toBe(true);
    t.insert({ product_id: 'p1', size: 'L', available: 1 });
    expect(t.misses.size).toBe(0);
    expect(loaded[1]!.available).toBe(2); // the loaded row is never changed
    expect(t.changes()).toEqual({
      deleted: [['p1', '']],
      written: [
        { product_id: 'p1', size: 'M', available: 5 },
        { product_id: 'p1', size: 'L', available: 1 },
      ],
    });
    t.reset(); // a new attempt starts from what was loaded
    expect(t.changes()).toEqual({ deleted: [], written: [] });
    expect(t.get(['p1', 'M'])).toEqual({ product_id: 'p1', size: 'M', available: 2 });
  });
});
