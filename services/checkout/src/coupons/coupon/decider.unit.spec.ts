import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import {
  decideClaimCode,
  decideCoupon,
  decideReleaseCode,
  evolveCoupon,
  evolveCouponCode,
  initialCouponCodeState,
  initialCouponState,
  type CouponCommand,
} from './decider.ts';
import type { CouponCodeEvent, CouponEvent, CouponTerms } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const at = now.toISOString();
const terms: CouponTerms = {
  code: 'DIWALI10',
  discount: { type: 'percentage', basisPoints: 1000, maxDiscountPaise: 20_000 },
  minOrderPaise: 50_000,
  usageLimit: 2,
  validFrom: null,
  validUntil: null,
  description: 'Festive',
  isActive: true,
};
const created: CouponEvent = { type: 'CouponCreated', data: { couponId: 'c1', ...terms, createdAt: at } };
const reserved = (
  reservationId: string,
  discountPaise = 10_000,
  buyers: string[] = [],
  heldUntil: string | null = null,
): CouponEvent => ({
  type: 'CouponUseReserved',
  data: {
    couponId: 'c1',
    code: 'DIWALI10',
    reservationId,
    orderTotalPaise: 100_000,
    discountPaise,
    reservedAt: at,
    buyers,
    heldUntil,
  },
});
const released = (reservationId: string): CouponEvent => ({
  type: 'CouponUseReleased',
  data: { couponId: 'c1', reservationId, releasedAt: at },
});
const committed = (reservationId: string): CouponEvent => ({
  type: 'CouponUseCommitted',
  data: { couponId: 'c1', reservationId, committedAt: at },
});

const given = deciderSpec({ decide: decideCoupon, evolve: evolveCoupon, initialState: initialCouponState });
const reserve = (
  reservationId: string,
  orderTotalPaise = 100_000,
  when = now,
  buyers: string[] = [],
  heldUntil: string | null = null,
): CouponCommand => ({
  type: 'ReserveCouponUse',
  data: { reservationId, orderTotalPaise, now: when, buyers, heldUntil },
});

describe('coupon decider: admin commands', () => {
  it('creates once, refusing terms the domain cannot hold', () => {
    const create = (t: CouponTerms): CouponCommand => ({
      type: 'CreateCoupon',
      data: { couponId: 'c1', terms: t, now },
    });
    given([]).when(create(terms)).then([created]);
    given([created]).when(create(terms)).then('Coupon already exists');
    given([])
      .when(create({ ...terms, discount: { type: 'percentage', basisPoints: 10_001, maxDiscountPaise: null } }))
      .then('Percentage discount cannot be more than 100');
    given([])
      .when(create({ ...terms, usageLimit: 0 }))
      .then('Usage limit');
    given([])
      .when(create({ ...terms, validFrom: '2026-12-02', validUntil: '2026-12-01' }))
      .then('Valid until cannot be before valid from');
  });

  it('records an update only when the terms change, and not for a deleted coupon', () => {
    const update = (t: CouponTerms): CouponCommand => ({ type: 'UpdateCoupon', data: { terms: t, now } });
    given([created])
      .when(update({ ...terms }))
      .then([]);
    given([created])
      .when(update({ ...terms, isActive: false }))
      .then([{ type: 'CouponUpdated', data: { couponId: 'c1', ...terms, isActive: false, updatedAt: at } }]);
    const deleted = given([created]).when({ type: 'DeleteCoupon', data: { now } }).events();
    expect(deleted).toEqual([{ type: 'CouponDeleted', data: { couponId: 'c1', code: 'DIWALI10', deletedAt: at } }]);
    given([created, ...deleted])
      .when(update(terms))
      .then('Coupon not found');
    given([created, ...deleted])
      .when({ type: 'DeleteCoupon', data: { now } })
      .then('Coupon not found');
  });
});

describe('coupon decider: uses', () => {
  it('reserves a use with the discount: 10 % of ₹1,000 capped at ₹200', () => {
    given([created])
      .when(reserve('r1'))
      .then([reserved('r1', 10_000)]);
    given([created])
      .when(reserve('r1', 500_000))
      .then([
        {
          ...reserved('r1', 20_000),
          data: { ...reserved('r1').data, orderTotalPaise: 500_000, discountPaise: 20_000 },
        } as CouponEvent,
      ]);
  });

  it('refuses a reservation once reserved plus committed uses reach the limit', () => {
    given([created, reserved('r1'), reserved('r2')])
      .when(reserve('r3'))
      .then('Coupon usage limit reached');
    given([created, reserved('r1'), committed('r1'), reserved('r2')])
      .when(reserve('r3'))
      .then('Coupon usage limit reached');
  });

  it('frees a use when its reservation is released, not when it is committed', () => {
    expect(
      given([created, reserved('r1'), reserved('r2'), released('r2')])
        .when(reserve('r3'))
        .events(),
    ).toHaveLength(1);
    const state = given([created, reserved('r1'), committed('r1'), reserved('r2'), released('r2')]).state();
    expect(state.status === 'live' && state.usesCounted).toBe(1);
  });

  it('is idempotent per reservation: a repeat records nothing, even after the limit is reached', () => {
    given([created, reserved('r1'), reserved('r2')])
      .when(reserve('r1'))
      .then([]);
    given([created, reserved('r1'), committed('r1')])
      .when(reserve('r1'))
      .then([]);
    given([created, reserved('r1'), released('r1')])
      .when(reserve('r1'))
      .then('was released');
  });

  it('refuses with the shopper-facing reason', () => {
    const with_ = (t: Partial<CouponTerms>) =>
      given([{ type: 'CouponCreated', data: { couponId: 'c1', ...terms, ...t, createdAt: at } }]).state();
    given([]).when(reserve('r1')).then('Invalid coupon code');
    given([created, { type: 'CouponDeleted', data: { couponId: 'c1', code: 'X', deletedAt: at } }])
      .when(reserve('r1'))
      .then('Invalid coupon code');
    expect(() => decideCoupon(reserve('r1'), with_({ isActive: false }))).toThrow('This coupon is not active');
    expect(() => decideCoupon(reserve('r1'), with_({ validFrom: '2026-11-23' }))).toThrow(
      'This coupon is not valid yet',
    );
    expect(() => decideCoupon(reserve('r1'), with_({ validUntil: '2026-11-21' }))).toThrow('This coupon has expired');
    given([created]).when(reserve('r1', 49_999)).then('Minimum order amount is ₹500');
  });

  describe('one live hold per buyer (issue 15, defect 4: 5 unpaid guest checkouts used up a limit-5 coupon)', () => {
    const later = new Date(now.getTime() + 15 * 60_000).toISOString();
    const guest = ['ip:a1', 'email:e1'];
    const many = (n: number) => ({ ...terms, usageLimit: n });
    const created10: CouponEvent = { type: 'CouponCreated', data: { couponId: 'c1', ...many(10), createdAt: at } };

    it('records who holds the use and until when', () => {
      given([created10])
        .when(reserve('r1', 100_000, now, guest, later))
        .then([reserved('r1', 10_000, guest, later)]);
    });

    it('refuses a second hold by the same buyer (any shared key: account, address or e-mail) with 409', () => {
      const state = given([created10, reserved('r1', 10_000, guest, later)]).state();
      for (const buyers of [guest, ['ip:a1'], ['ip:other', 'email:e1']]) {
        let thrown: unknown;
        try {
          decideCoupon(reserve('r2', 100_000, now, buyers, later), state);
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toMatchObject({
          kind: 'conflict',
          message:
            'You already have an unpaid checkout using coupon DIWALI10; pay for it or wait for it to expire before using the coupon again',
        });
      }
      // another buyer, or the same buyer repeating the same reservation, is not refused
      expect(decideCoupon(reserve('r2', 100_000, now, ['ip:a2', 'email:e2'], later), state)).toHaveLength(1);
      expect(decideCoupon(reserve('r1', 100_000, now, guest, later), state)).toEqual([]);
    });

    it('lets the buyer hold it again once the first hold is paid, released, or past its hold', () => {
      const again = (events: CouponEvent[], when = now) =>
        given([created10, ...events])
          .when(reserve('r2', 100_000, when, guest, later))
          .events();
      expect(again([reserved('r1', 10_000, guest, later), committed('r1')])).toHaveLength(1);
      expect(again([reserved('r1', 10_000, guest, later), released('r1')])).toHaveLength(1);
      expect(again([reserved('r1', 10_000, guest, at)], new Date(now.getTime() + 1))).toHaveLength(1);
      // uses recorded before buyers were carry no keys and block no one
      expect(again([reserved('r1')])).toHaveLength(1);
    });
  });

  it('commits and releases only held uses; anything else is a no-op', () => {
    const settle = (type: 'CommitCouponUse' | 'ReleaseCouponUse', reservationId: string): CouponCommand => ({
      type,
      data: { reservationId, now },
    });
    given([created, reserved('r1')])
      .when(settle('CommitCouponUse', 'r1'))
      .then([committed('r1')]);
    given([created, reserved('r1')])
      .when(settle('ReleaseCouponUse', 'r1'))
      .then([released('r1')]);
    given([created, reserved('r1'), committed('r1')])
      .when(settle('CommitCouponUse', 'r1'))
      .then([]);
    given([created, reserved('r1'), committed('r1')])
      .when(settle('ReleaseCouponUse', 'r1'))
      .then([]);
    given([created, reserved('r1'), released('r1')])
      .when(settle('CommitCouponUse', 'r1'))
      .then([]);
    given([created]).when(settle('ReleaseCouponUse', 'nope')).then([]);
    given([]).when(settle('ReleaseCouponUse', 'r1')).then([]);
    // a checkout in flight still settles after the coupon is deleted
    const deleted: CouponEvent = { type: 'CouponDeleted', data: { couponId: 'c1', code: 'DIWALI10', deletedAt: at } };
    given([created, reserved('r1'), deleted])
      .when(settle('CommitCouponUse', 'r1'))
      .then([committed('r1')]);
  });
});

describe('coupon code claims', () => {
  const givenCode = (events: CouponCodeEvent[]) => events.reduce(evolveCouponCode, initialCouponCodeState());
  const claimed = (couponId: string): CouponCodeEvent => ({ type: 'CouponCodeClaimed', data: { code: 'X', couponId } });
  it('lets one coupon hold a code at a time, and remembers every holder', () => {
    expect(decideClaimCode({ code: 'X', couponId: 'c1' }, givenCode([]))).toEqual([claimed('c1')]);
    expect(decideClaimCode({ code: 'X', couponId: 'c1' }, givenCode([claimed('c1')]))).toEqual([]);
    expect(() => decideClaimCode({ code: 'X', couponId: 'c2' }, givenCode([claimed('c1')]))).toThrow(
      'Coupon code already exists',
    );
    expect(decideReleaseCode({ code: 'X', couponId: 'c2' }, givenCode([claimed('c1')]))).toEqual([]);
    const [release] = decideReleaseCode({ code: 'X', couponId: 'c1' }, givenCode([claimed('c1')]));
    const state = givenCode([claimed('c1'), release!, claimed('c2')]);
    expect(state).toEqual({ owner: 'c2', holders: ['c1', 'c2'] });
  });

  describe('a cancelled order gives its use back (ReturnCouponUse)', () => {
    const give = (reservationId: string): CouponCommand => ({ type: 'ReturnCouponUse', data: { reservationId, now } });
    const returned: CouponEvent = { type: 'CouponUseReturned', data: { couponId: 'c1', reservationId: 'r1', returnedAt: at } };

    it('returns a used use once: it no longer counts, so the limit has room again', () => {
      given([created, reserved('r1'), committed('r1'), reserved('r2')])
        .when(give('r1'))
        .then([returned]);
      given([created, reserved('r1'), committed('r1'), returned])
        .when(give('r1'))
        .then([]);
      expect(
        given([created, reserved('r1'), committed('r1'), returned, reserved('r2')])
          .when(reserve('r3'))
          .events(),
      ).toHaveLength(1);
    });

    it('releases a use still held (its commit never comes), and gives nothing back for a deleted coupon', () => {
      given([created, reserved('r1')])
        .when(give('r1'))
        .then([released('r1')]);
      const deleted: CouponEvent = { type: 'CouponDeleted', data: { couponId: 'c1', code: 'DIWALI10', deletedAt: at } };
      given([created, reserved('r1'), committed('r1'), deleted])
        .when(give('r1'))
        .then([]);
      given([created]).when(give('r9')).then([]);
    });
  });
});
