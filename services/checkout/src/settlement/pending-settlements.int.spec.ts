import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryPort } from '@shop/shared/contracts/inventory';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import type { CouponUses } from '../payment/ports.ts';
import { PendingSettlements } from './settlement-consumer.ts';

// The settlement consumer records what to do in its bus transaction; the calls to the catalog and the
// coupons slice happen afterwards, and a failed one is kept and retried with backoff, never lost.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

function fakes() {
  const calls: string[] = [];
  let inventoryDown = false;
  const inventory: InventoryPort = {
    reserve: () => Promise.reject(new Error('not used')),
    commit: (id) => {
      if (inventoryDown) return Promise.reject(new Error('catalog unreachable'));
      calls.push(`commit ${id}`);
      return Promise.resolve();
    },
    release: (id) => {
      if (inventoryDown) return Promise.reject(new Error('catalog unreachable'));
      calls.push(`release ${id}`);
      return Promise.resolve();
    },
    returnSale: () => Promise.reject(new Error('not used')),
  };
  const coupons: CouponUses = {
    reserveUse: () => Promise.reject(new Error('not used')),
    admitUse: () => Promise.reject(new Error('not used')),
    commitUse: (code, id) => (calls.push(`count ${code} ${id}`), Promise.resolve()),
    releaseUse: (code, id) => (calls.push(`give back ${code} ${id}`), Promise.resolve()),
    returnUse: () => Promise.reject(new Error('not used')),
  };
  return { calls, inventory, coupons, setDown: (down: boolean) => (inventoryDown = down) };
}

async function recordInTx(s: PendingSettlements, id: string, action: 'commit' | 'release', coupon: string | null) {
  const tx = await db.pool.connect();
  try {
    await tx.query('BEGIN');
    await s.record(tx, id, action, coupon);
    await tx.query('COMMIT');
  } finally {
    tx.release();
  }
}

const pendingRows = async () =>
  (
    await db.pool.query<{ reservation_id: string; action: string; attempts: number }>(
      'SELECT reservation_id, action, attempts FROM checkout.pending_settlements ORDER BY reservation_id',
    )
  ).rows;

describe('pending settlements', () => {
  it('carries out recorded settlements after the commit, once, with their coupon; a repeat records nothing new', async () => {
    const f = fakes();
    const s = new PendingSettlements({
      pool: db.pool,
      ...f,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
    });
    await recordInTx(s, 'r-paid', 'commit', 'SAVE10');
    await recordInTx(s, 'r-paid', 'commit', 'SAVE10'); // at-least-once redelivery of the same event
    await recordInTx(s, 'r-lapsed', 'release', null);
    expect(f.calls).toEqual([]); // recording calls nobody
    expect(await s.run()).toBe(2);
    expect(f.calls.sort()).toEqual(['commit r-paid', 'count SAVE10 r-paid', 'release r-lapsed']);
    expect(await pendingRows()).toEqual([]);
  });

  it('keeps a settlement the catalog could not take and retries it with backoff until it is taken', async () => {
    const f = fakes();
    let now = new Date('2026-11-22T10:00:00Z');
    const s = new PendingSettlements({ pool: db.pool, ...f, logger: pino({ level: 'silent' }), clock: () => now });
    await recordInTx(s, 'r-retry', 'commit', null);
    f.setDown(true);
    expect(await s.run()).toBe(0);
    expect(await pendingRows()).toEqual([{ reservation_id: 'r-retry', action: 'commit', attempts: 1 }]);
    f.setDown(false);
    expect(await s.run()).toBe(0); // not due yet: it waits before trying again
    expect(f.calls).toEqual([]);
    now = new Date(now.getTime() + 1_500);
    expect(await s.run()).toBe(1);
    expect(f.calls).toEqual(['commit r-retry']);
    expect(await pendingRows()).toEqual([]);
  });
});
