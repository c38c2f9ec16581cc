import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { Coupons } from '../coupons/coupons.ts';
import { LiveCheckouts } from '../buyer-limits/live-checkouts.ts';
import { releaseOrphanCheckouts } from './orphan-checkouts.ts';

// A create-order that died after holding a coupon use and a live-checkout place, but before recording its
// payment order, leaves both behind. Once the place's backstop has passed, the orphan sweep gives the use
// back and deletes the place; a checkout that did record its order is left to the order's own expiry.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('orphaned checkouts', () => {
  it('releases the coupon use and the place of a checkout that never recorded its order, and nothing else', async () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const clock = () => now;
    const store = new PostgresEventStore(db.pool, 'checkout', clock);
    const coupons = new Coupons(store, clock);
    const places = new LiveCheckouts(db.pool, 3);
    await coupons.create({
      code: 'ORPHAN10',
      discount: { type: 'percentage', basisPoints: 1000, maxDiscountPaise: null },
      minOrderPaise: 0,
      usageLimit: 2,
      validFrom: null,
      validUntil: null,
      description: '',
      isActive: true,
    });
    const hold = async (reservationId: string, buyer: string) => {
      await places.take({ buyerKey: buyer, addressKey: buyer }, reservationId, now, new Date(now.getTime() + 60_000));
      await coupons.reserveUse({ code: 'ORPHAN10', reservationId, orderTotalPaise: 100_000, buyers: [buyer] });
    };
    await hold('r-died', 'ip:a');
    await hold('r-recorded', 'ip:b');
    // r-recorded got as far as its payment order (the read model checkout reads).
    await db.pool.query(
      `INSERT INTO checkout.payment_orders
         (razorpay_order_id, reservation_id, status, total_paise, created_at, expires_at, updated_at)
       VALUES ('order_r', 'r-recorded', 'created', 90000, $1, $2, $1)`,
      [now, new Date(now.getTime() + 600_000)],
    );
    // The limit of 2 is taken by the two holds.
    await expect(
      coupons.reserveUse({ code: 'ORPHAN10', reservationId: 'r-third', orderTotalPaise: 100_000, buyers: ['ip:c'] }),
    ).rejects.toThrow();

    const sweep = () =>
      releaseOrphanCheckouts({
        pool: db.pool,
        clock,
        logger: pino({ level: 'silent' }),
        releaseCouponUses: (id) => coupons.releaseUsesOf(id),
      });
    expect(await sweep()).toBe(0); // the places' backstop has not passed
    now = new Date(now.getTime() + 61_000);
    expect(await sweep()).toBe(1);
    const left = await db.pool.query<{ reservation_id: string }>(
      'SELECT reservation_id FROM checkout.live_checkouts ORDER BY reservation_id',
    );
    expect(left.rows.map((r) => r.reservation_id)).toEqual(['r-recorded']);
    // The orphan's use is back: a new buyer gets the coupon; the recorded checkout still holds its own.
    await coupons.reserveUse({
      code: 'ORPHAN10',
      reservationId: 'r-third',
      orderTotalPaise: 100_000,
      buyers: ['ip:c'],
    });
    const released = await db.pool.query<{ r: string }>(
      `SELECT data->>'reservationId' AS r FROM checkout.events WHERE type = 'CouponUseReleased'`,
    );
    expect(released.rows.map((x) => x.r)).toEqual(['r-died']);
    expect(await sweep()).toBe(0); // nothing twice
  });
});
