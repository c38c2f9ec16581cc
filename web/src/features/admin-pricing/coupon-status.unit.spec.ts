import { describe, expect, it } from 'vitest';
import { couponStatus, couponUsage } from './coupon-status';

const now = new Date('2026-11-22T10:00:00Z');
const live = { isActive: true, validUntil: null, usageLimit: null, usedCount: 0 };

describe('couponStatus', () => {
  it('is Active for an active coupon with no end and no limit', () => {
    expect(couponStatus(live, now)).toBe('Active');
  });

  it('is Inactive first, even when it is also expired and used up', () => {
    expect(couponStatus({ isActive: false, validUntil: '2020-01-01', usageLimit: 1, usedCount: 5 }, now)).toBe(
      'Inactive',
    );
  });

  it('is Expired before Limit Reached', () => {
    expect(couponStatus({ ...live, validUntil: '2026-11-21', usageLimit: 2, usedCount: 2 }, now)).toBe('Expired');
  });

  it('treats a plain day as lasting until its end in India', () => {
    expect(couponStatus({ ...live, validUntil: '2026-11-22' }, now)).toBe('Active');
    // 2026-11-22 23:59:59.999 IST is 18:29:59.999 UTC.
    expect(couponStatus({ ...live, validUntil: '2026-11-22' }, new Date('2026-11-22T18:30:00Z'))).toBe('Expired');
  });

  it('compares an instant bound exactly', () => {
    expect(couponStatus({ ...live, validUntil: '2026-11-22T09:59:59.000Z' }, now)).toBe('Expired');
    expect(couponStatus({ ...live, validUntil: '2026-11-22T10:00:01.000Z' }, now)).toBe('Active');
  });

  it('is Limit Reached at or above the usage limit, Active below it', () => {
    expect(couponStatus({ ...live, usageLimit: 3, usedCount: 3 }, now)).toBe('Limit Reached');
    expect(couponStatus({ ...live, usageLimit: 3, usedCount: 4 }, now)).toBe('Limit Reached');
    expect(couponStatus({ ...live, usageLimit: 3, usedCount: 2 }, now)).toBe('Active');
  });
});

describe('couponUsage', () => {
  it('shows used / limit, or infinity without a limit', () => {
    expect(couponUsage(2, 10)).toBe('2 / 10');
    expect(couponUsage(0, null)).toBe('0 / ∞');
  });
});
