// A coupon's display status, checked in the seed's order: Inactive, Expired, Limit Reached, then Active.

export type CouponStatus = 'Inactive' | 'Expired' | 'Limit Reached' | 'Active';

export type CouponStatusInput = {
  isActive: boolean;
  /** A day (YYYY-MM-DD, the shop's day in India) or an instant; null when it never ends. */
  validUntil: string | null;
  usageLimit: number | null;
  usedCount: number;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The last instant a validity bound covers: a plain day lasts until its end in India (UTC+5:30). */
export function validUntilInstant(validUntil: string): Date {
  return DAY.test(validUntil) ? new Date(`${validUntil}T23:59:59.999+05:30`) : new Date(validUntil);
}

export function couponStatus(coupon: CouponStatusInput, now: Date = new Date()): CouponStatus {
  if (!coupon.isActive) return 'Inactive';
  if (coupon.validUntil) {
    const until = validUntilInstant(coupon.validUntil);
    if (!Number.isNaN(until.getTime()) && until.getTime() < now.getTime()) return 'Expired';
  }
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) return 'Limit Reached';
  return 'Active';
}

/** 'used / limit', or 'used / ∞' when the coupon has no usage limit. */
export function couponUsage(usedCount: number, usageLimit: number | null): string {
  return `${usedCount} / ${usageLimit === null ? '∞' : usageLimit}`;
}
