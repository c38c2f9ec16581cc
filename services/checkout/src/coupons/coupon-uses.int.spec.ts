import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@shop/shared/db/pool';
import { ValidationError } from '@shop/shared/errors/errors';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { waitUntil } from '@shop/test-support/wait-until';
import { startCheckoutTestHost, type CheckoutTestHost } from '../testing/checkout-test-host.ts';
import { Coupons } from './coupons.ts';
import { createCoupons } from './index.ts';

interface Coupon {
  id: string;
  code: string;
  usedCount: number;
  reservedCount: number;
  usageLimit: number | null;
  status: string;
}

let host: CheckoutTestHost<ReturnType<typeof createCoupons>>;
let admin: string;
let coupons: Coupons;
/** A second writer with its own connection pool, as another checkout process would be. */
let otherProcess: Coupons;
let otherPool: ReturnType<typeof createPool>;
beforeAll(async () => {
  host = await startCheckoutTestHost(createCoupons);
  admin = await host.login();
  coupons = host.slice.coupons;
  otherPool = createPool(host.db.url);
  otherProcess = new Coupons(new PostgresEventStore(otherPool, 'checkout'), () => new Date());
});
afterAll(async () => {
  await otherPool.end();
  await host.stop();
});

const createCoupon = async (code: string, usageLimit: number | null) => {
  const r = await host.api<Coupon>('POST', '/api/coupons', {
    token: admin,
    body: { code, discountType: 'fixed', discountValue: 100, minOrderAmount: 0, usageLimit },
  });
  expect(r.status).toBe(201);
  return r.body;
};
const listed = async (code: string) =>
  (await host.api<Coupon[]>('GET', '/api/coupons', { token: admin })).body.find((c) => c.code === code);
const eventCounts = async (couponId: string) => {
  const { rows } = await host.db.pool.query<{ type: string; n: number }>(
    `SELECT type, count(*)::int AS n FROM checkout.events WHERE stream_id = $1 GROUP BY type`,
    [`coupon-${couponId}`],
  );
  return Object.fromEntries(rows.map((r) => [r.type, r.n]));
};

describe('coupon uses under concurrency', () => {
  it('50 concurrent checkouts from two processes on a coupon with usage limit 5: exactly 5 get it', async () => {
    const coupon = await createCoupon('FLASH5', 5);
    const reservationIds = Array.from({ length: 50 }, () => randomUUID());
    const results = await Promise.allSettled(
      reservationIds.map((reservationId, i) =>
        (i % 2 ? otherProcess : coupons).reserveUse({ code: 'flash5', reservationId, orderTotalPaise: 150_000 }),
      ),
    );
    const won = reservationIds.filter((_, i) => results[i]!.status === 'fulfilled');
    expect(won).toHaveLength(5);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value).toEqual({ code: 'FLASH5', discountPaise: 10_000 });
      else {
        expect(r.reason).toBeInstanceOf(ValidationError);
        expect((r.reason as Error).message).toBe('Coupon usage limit reached');
      }
    }
    expect(await eventCounts(coupon.id)).toEqual({ CouponCreated: 1, CouponUseReserved: 5 });

    // held uses count against the limit, for validation too
    await waitUntil(async () => (await listed('FLASH5'))?.usedCount === 5, 'the held uses to reach the list');
    expect(await listed('FLASH5')).toMatchObject({ usedCount: 5, reservedCount: 5, status: 'Limit Reached' });
    expect(
      (await host.api('POST', '/api/coupons/validate', { body: { code: 'FLASH5', orderTotal: 1500 } })).body,
    ).toMatchObject({ valid: false, message: 'Coupon usage limit reached' });

    // payments arrive: committed, still 5 used, none held; committing again changes nothing
    await Promise.all(won.map((id) => coupons.commitUse('FLASH5', id)));
    await Promise.all(won.map((id) => otherProcess.commitUse('flash5', id)));
    await waitUntil(async () => (await listed('FLASH5'))?.reservedCount === 0, 'the commits to reach the list');
    expect(await listed('FLASH5')).toMatchObject({ usedCount: 5, reservedCount: 0, status: 'Limit Reached' });
    expect(await eventCounts(coupon.id)).toEqual({ CouponCreated: 1, CouponUseReserved: 5, CouponUseCommitted: 5 });
  });

  it('no checkout is turned away for contention: 60 concurrent reservations on a roomy coupon all succeed', async () => {
    // Without per-stream serialisation, optimistic retries run out under this much contention on one stream.
    const coupon = await createCoupon('ROOMY', 100);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? otherProcess : coupons).reserveUse({
          code: 'ROOMY',
          reservationId: randomUUID(),
          orderTotalPaise: 20_000,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    expect(await eventCounts(coupon.id)).toEqual({ CouponCreated: 1, CouponUseReserved: 60 });
  });

  it('is idempotent per reservation: a retried reservation answers the first result and records nothing', async () => {
    const coupon = await createCoupon('RETRY2', 2);
    const reservationId = randomUUID();
    const first = await coupons.reserveUse({ code: 'RETRY2', reservationId, orderTotalPaise: 5_000 });
    const again = await Promise.all(
      Array.from({ length: 10 }, () => coupons.reserveUse({ code: 'RETRY2', reservationId, orderTotalPaise: 9_999 })),
    );
    expect(first).toEqual({ code: 'RETRY2', discountPaise: 5_000 });
    expect(again.every((r) => r.discountPaise === 5_000)).toBe(true);
    expect(await eventCounts(coupon.id)).toEqual({ CouponCreated: 1, CouponUseReserved: 1 });
  });

  it('releasing a held use frees it for the next checkout; release and commit without a hold do nothing', async () => {
    const coupon = await createCoupon('PAIR', 2);
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await coupons.reserveUse({ code: 'PAIR', reservationId: a, orderTotalPaise: 50_000 });
    await coupons.reserveUse({ code: 'PAIR', reservationId: b, orderTotalPaise: 50_000 });
    await expect(coupons.reserveUse({ code: 'PAIR', reservationId: c, orderTotalPaise: 50_000 })).rejects.toThrow(
      'Coupon usage limit reached',
    );
    await coupons.releaseUse('PAIR', b);
    await coupons.releaseUse('PAIR', b);
    await coupons.commitUse('PAIR', b);
    await coupons.releaseUse('PAIR', 'never-reserved');
    await coupons.releaseUse('NO-SUCH-CODE', a);
    await expect(coupons.reserveUse({ code: 'PAIR', reservationId: c, orderTotalPaise: 50_000 })).resolves.toEqual({
      code: 'PAIR',
      discountPaise: 10_000,
    });
    // a released reservation stays released
    await expect(coupons.reserveUse({ code: 'PAIR', reservationId: b, orderTotalPaise: 50_000 })).rejects.toThrow(
      'was released',
    );
    expect(await eventCounts(coupon.id)).toEqual({ CouponCreated: 1, CouponUseReserved: 3, CouponUseReleased: 1 });
    await waitUntil(async () => (await listed('PAIR'))?.usedCount === 2, 'the uses to reach the list');
  });

  it('refuses unknown codes and settles a checkout whose coupon was deleted (and its code reused) meanwhile', async () => {
    await expect(coupons.reserveUse({ code: 'NOPE', reservationId: randomUUID(), orderTotalPaise: 1 })).rejects.toThrow(
      'Invalid coupon code',
    );
    await expect(coupons.reserveUse({ code: ' ', reservationId: randomUUID(), orderTotalPaise: 1 })).rejects.toThrow(
      'Please enter a coupon code',
    );
    const old = await createCoupon('REUSED', 1);
    const inFlight = randomUUID();
    await coupons.reserveUse({ code: 'REUSED', reservationId: inFlight, orderTotalPaise: 50_000 });
    expect((await host.api('DELETE', `/api/coupons/${old.id}`, { token: admin })).status).toBe(200);
    const successor = await createCoupon('REUSED', 1);
    await coupons.commitUse('REUSED', inFlight);
    expect(await eventCounts(old.id)).toMatchObject({ CouponUseReserved: 1, CouponUseCommitted: 1 });
    expect(await eventCounts(successor.id)).toEqual({ CouponCreated: 1 });
    await expect(
      coupons.reserveUse({ code: 'REUSED', reservationId: randomUUID(), orderTotalPaise: 50_000 }),
    ).resolves.toMatchObject({ code: 'REUSED' });
  });
});
