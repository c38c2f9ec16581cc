import { describe, expect, it } from 'vitest';
import type { StockEvent } from './events.ts';
import { decideStock, evolveStock, initialStockState, InsufficientStockError, type StockCommand } from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const key = { productId: 'p1', size: 'M' };
const given = (events: StockEvent[]) => events.reduce(evolveStock, initialStockState());
const level = (available: number): StockEvent => ({
  type: 'StockLevelSet',
  data: { ...key, available, at: now.toISOString() },
});
const run = (events: StockEvent[], cmd: StockCommand) => decideStock(cmd, given(events));
const reserve = (reservationId: string, quantity: number): StockCommand => ({
  type: 'ReserveStock',
  data: { ...key, reservationId, quantity, now },
});
const release = (reservationId: string): StockCommand => ({
  type: 'ReleaseStock',
  data: { ...key, reservationId, reason: 'expired', now },
});
const commit = (reservationId: string): StockCommand => ({ type: 'CommitStock', data: { ...key, reservationId, now } });

describe('stock decider', () => {
  it('reserves while units are available and refuses beyond, saying how many are left', () => {
    const r1 = run([level(3)], reserve('a', 2));
    expect(r1).toMatchObject([{ type: 'StockReserved', data: { reservationId: 'a', quantity: 2 } }]);
    expect(() => run([level(3), ...r1], reserve('b', 2))).toThrow(InsufficientStockError);
    try {
      run([level(3), ...r1], reserve('b', 2));
    } catch (e) {
      expect((e as InsufficientStockError).available).toBe(1);
    }
  });
  it('is idempotent per reservation', () => {
    const r1 = run([level(3)], reserve('a', 2));
    expect(run([level(3), ...r1], reserve('a', 2))).toEqual([]);
  });
  it('releases a hold once, giving the units back', () => {
    const r1 = run([level(3)], reserve('a', 2));
    const rel = run([level(3), ...r1], release('a'));
    expect(rel).toMatchObject([{ type: 'StockReleased', data: { quantity: 2 } }]);
    expect(given([level(3), ...r1, ...rel]).available).toBe(3);
    expect(run([level(3), ...r1, ...rel], release('a'))).toEqual([]);
    expect(run([level(3)], release('nope'))).toEqual([]);
  });
  it('commits a hold once; a lapsed hold is taken again only if the units are still there', () => {
    const r1 = run([level(2)], reserve('a', 2));
    const c = run([level(2), ...r1], commit('a'));
    expect(c.map((e) => e.type)).toEqual(['StockCommitted']);
    expect(run([level(2), ...r1, ...c], commit('a'))).toEqual([]);
    const rel = run([level(2), ...r1], release('a'));
    expect(run([level(2), ...r1, ...rel], commit('a')).map((e) => e.type)).toEqual(['StockReserved', 'StockCommitted']);
    const other = run([level(2), ...r1, ...rel], reserve('b', 2));
    expect(() => run([level(2), ...r1, ...rel, ...other], commit('a'))).toThrow(InsufficientStockError);
  });
  it('never lets available go below zero', () => {
    let events: StockEvent[] = [level(5)];
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      try {
        events = [...events, ...run(events, reserve(`r${i}`, 1))];
        accepted += 1;
      } catch {
        // refused
      }
    }
    expect(accepted).toBe(5);
    expect(given(events).available).toBe(0);
  });
  it('sets levels with whole non-negative numbers only', () => {
    expect(() => run([], { type: 'SetStockLevel', data: { ...key, available: -1, now } })).toThrow('at least 0');
    expect(run([level(4)], { type: 'SetStockLevel', data: { ...key, available: 4, now } })).toEqual([]);
  });
});
