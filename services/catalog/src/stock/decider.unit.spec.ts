import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { StockEvent } from './events.ts';
import { decideStock, evolveStock, initialStockState, InsufficientStockError, type StockCommand } from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const key = { productId: 'p1', size: 'M' };
const given = deciderSpec({ decide: decideStock, evolve: evolveStock, initialState: initialStockState });
const level = (available: number): StockEvent => ({
  type: 'StockLevelSet',
  data: { ...key, available, at: now.toISOString() },
});

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
    const r1 = given([level(3)])
      .when(reserve('a', 2))
      .events();
    expect(r1).toMatchObject([{ type: 'StockReserved', data: { reservationId: 'a', quantity: 2 } }]);
    given([level(3), ...r1])
      .when(reserve('b', 2))
      .then(InsufficientStockError);
    try {
      given([level(3), ...r1])
        .when(reserve('b', 2))
        .events();
    } catch (e) {
      expect((e as InsufficientStockError).available).toBe(1);
    }
  });
  it('is idempotent per reservation', () => {
    const r1 = given([level(3)])
      .when(reserve('a', 2))
      .events();
    given([level(3), ...r1])
      .when(reserve('a', 2))
      .then([]);
  });
  it('releases a hold once, giving the units back', () => {
    const r1 = given([level(3)])
      .when(reserve('a', 2))
      .events();
    const rel = given([level(3), ...r1])
      .when(release('a'))
      .events();
    expect(rel).toMatchObject([{ type: 'StockReleased', data: { quantity: 2 } }]);
    expect(given([level(3), ...r1, ...rel]).state().available).toBe(3);
    given([level(3), ...r1, ...rel])
      .when(release('a'))
      .then([]);
    given([level(3)])
      .when(release('nope'))
      .then([]);
  });
  it('commits a hold once; a lapsed hold is taken again only if the units are still there', () => {
    const r1 = given([level(2)])
      .when(reserve('a', 2))
      .events();
    const c = given([level(2), ...r1])
      .when(commit('a'))
      .events();
    expect(c.map((e) => e.type)).toEqual(['StockCommitted']);
    given([level(2), ...r1, ...c])
      .when(commit('a'))
      .then([]);
    const rel = given([level(2), ...r1])
      .when(release('a'))
      .events();
    expect(
      given([level(2), ...r1, ...rel])
        .when(commit('a'))
        .events()
        .map((e) => e.type),
    ).toEqual(['StockReserved', 'StockCommitted']);
    const other = given([level(2), ...r1, ...rel])
      .when(reserve('b', 2))
      .events();
    given([level(2), ...r1, ...rel, ...other])
      .when(commit('a'))
      .then(InsufficientStockError);
  });
  it('never lets available go below zero', () => {
    let events: StockEvent[] = [level(5)];
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      try {
        events = [
          ...events,
          ...given(events)
            .when(reserve(`r${i}`, 1))
            .events(),
        ];
        accepted += 1;
      } catch {
        // refused
      }
    }
    expect(accepted).toBe(5);
    expect(given(events).state().available).toBe(0);
  });
  it('sets levels with whole non-negative numbers only', () => {
    given([])
      .when({ type: 'SetStockLevel', data: { ...key, available: -1, now } })
      .then('at least 0');
    given([level(4)])
      .when({ type: 'SetStockLevel', data: { ...key, available: 4, now } })
      .then([]);
  });

  it("returns a cancelled order's units, sold or still held, once; the hold is never sold afterwards", () => {
    const giveBack = (reservationId: string): StockCommand => ({
      type: 'ReleaseStock',
      data: { ...key, reservationId, reason: 'order cancelled', now, returnSale: true },
    });
    const held = given([level(5)]).when(reserve('a', 2)).events();
    const sold = given([level(5), ...held]).when(commit('a')).events();
    const back = given([level(5), ...held, ...sold]).when(giveBack('a')).events();
    expect(back).toMatchObject([{ type: 'StockReleased', data: { reservationId: 'a', quantity: 2, returned: 'sold' } }]);
    const state = given([level(5), ...held, ...sold, ...back]).state();
    expect(state.available).toBe(5);
    given([level(5), ...held, ...sold, ...back]).when(giveBack('a')).then([]);
    given([level(5), ...held, ...sold, ...back]).when(commit('a')).then([]);
    // an ordinary release leaves a sale alone
    given([level(5), ...held, ...sold]).when(release('a')).then([]);
    // still held (the commit has not run yet): given back, and the late commit sells nothing
    const early = given([level(5), ...held]).when(giveBack('a')).events();
    expect(early).toMatchObject([{ type: 'StockReleased', data: { quantity: 2, returned: 'held' } }]);
    given([level(5), ...held, ...early]).when(commit('a')).then([]);
  });
});

