import { describe, expect, it } from 'vitest';
import {
  boundInstant,
  checkEligibility,
  couponStatus,
  discountFor,
  formatRupees,
  normaliseValidityBound,
} from './eligibility.ts';
import type { CouponTerms } from './events.ts';

const terms: CouponTerms = {
  code: 'FLAT100',
  discount: { type: 'fixed', amountPaise: 10_000 },
  minOrderPaise: 0,
  usageLimit: null,
  validFrom: '2026-11-01',
  validUntil: '2026-11-30',
  description: '',
  isActive: true,
};

describe('discountFor', () => {
  it('takes a percentage of the total, capped by the max discount', () => {
    expect(discountFor({ type: 'percentage', basisPoints: 1250, maxDiscountPaise: null }, 99_999)).toBe(12_500);
    expect(discountFor({ type: 'percentage', basisPoints: 5000, maxDiscountPaise: 30_000 }, 100_000)).toBe(30_000);
  });
  it('never gives more than the order total', () => {
    expect(discountFor({ type: 'fixed', amountPaise: 10_000 }, 6_000)).toBe(6_000);
    expect(discountFor({ type: 'percentage', basisPoints: 10_000, maxDiscountPaise: null }, 6_000)).toBe(6_000);
  });
});

describe('validity window (India time)', () => {
  it('a calendar day runs from its first to its last moment in India', () => {
    expect(boundInstant('2026-11-30', 'end').toISOString()).toBe('2026-11-30T18:29:59.999Z');
    expect(boundInstant('2026-11-01', 'start').toISOString()).toBe('2026-10-31T18:30:00.000Z');
    const t = (iso: string) => checkEligibility(terms, { orderTotalPaise: 50_000, usesCounted: 0, now: new Date(iso) });
    expect(t('2026-10-31T18:29:59Z')).toEqual({ ok: false, message: 'This coupon is not valid yet' });
    expect(t('2026-10-31T18:30:00Z')).toEqual({ ok: true, discountPaise: 10_000 });
    expect(t('2026-11-30T18:29:59Z')).toEqual({ ok: true, discountPaise: 10_000 });
    expect(t('2026-11-30T18:30:00Z')).toEqual({ ok: false, message: 'This coupon has expired' });
  });
  it('keeps days as days, reads a datetime-local value as India time, refuses non-dates', () => {
    expect(normaliseValidityBound(' 2026-12-31 ')).toBe('2026-12-31');
    expect(normaliseValidityBound('2026-12-31T23:59')).toBe('2026-12-31T18:29:00.000Z');
    expect(normaliseValidityBound('2026-12-31T10:00:00Z')).toBe('2026-12-31T10:00:00.000Z');
    expect(normaliseValidityBound('2026-02-30')).toBeNull();
    expect(normaliseValidityBound('next week')).toBeNull();
  });
});

describe('checkEligibility', () => {
  const now = new Date('2026-11-15T12:00:00Z');
  it('checks active, window, usage limit, then minimum order', () => {
    const check = (t: Partial<CouponTerms>, usesCounted = 0, orderTotalPaise = 50_000) =>
      checkEligibility({ ...terms, ...t }, { orderTotalPaise, usesCounted, now });
    expect(check({ isActive: false, validUntil: '2026-01-01' })).toMatchObject({
      message: 'This coupon is not active',
    });
    expect(check({ usageLimit: 3 }, 3)).toMatchObject({ message: 'Coupon usage limit reached' });
    expect(check({ usageLimit: 3 }, 2)).toEqual({ ok: true, discountPaise: 10_000 });
    expect(check({ minOrderPaise: 149_950 }, 0, 149_949)).toEqual({
      ok: false,
      message: 'Minimum order amount is ₹1,499.50',
    });
    expect(check({ minOrderPaise: 149_950 }, 0, 149_950)).toMatchObject({ ok: true });
  });
  it('formats amounts the Indian way', () => {
    expect(formatRupees(10_000_000)).toBe('₹1,00,000');
    expect(formatRupees(50)).toBe('₹0.50');
  });
});

describe('couponStatus (the seed order: Inactive, Expired, Limit Reached, Active)', () => {
  const now = new Date('2026-12-05T00:00:00Z');
  it('picks the first that applies', () => {
    expect(couponStatus({ isActive: false, validUntil: '2026-11-30', usageLimit: 1 }, 5, now)).toBe('Inactive');
    expect(couponStatus({ isActive: true, validUntil: '2026-11-30', usageLimit: 1 }, 5, now)).toBe('Expired');
    expect(couponStatus({ isActive: true, validUntil: null, usageLimit: 1 }, 1, now)).toBe('Limit Reached');
    expect(couponStatus({ isActive: true, validUntil: null, usageLimit: null }, 1_000, now)).toBe('Active');
  });
});
