import { INDIA_UTC_OFFSET } from '@shop/shared/time/india-date';
import type { CouponTerms, Discount } from './events.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const isRealDay = (day: string) => new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

/**
 * A validity bound as stored: a calendar day stays a day (YYYY-MM-DD); a date-time becomes an ISO instant
 * (one without an offset, as a datetime-local field sends it, is India time). null when not a date.
 */
export function normaliseValidityBound(input: string): string | null {
  const v = input.trim();
  if (DAY.test(v)) return isRealDay(v) ? v : null;
  const withOffset = LOCAL_DATE_TIME.test(v) ? `${v}${INDIA_UTC_OFFSET}` : INSTANT.test(v) ? v : null;
  if (withOffset === null || !isRealDay(v.slice(0, 10))) return null;
  const at = new Date(withOffset);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The instant a stored bound stands for: a day starts at its first and ends at its last millisecond in India. */
export function boundInstant(bound: string, edge: 'start' | 'end'): Date {
  if (DAY.test(bound))
    return new Date(`${bound}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}${INDIA_UTC_OFFSET}`);
  return new Date(bound);
}

/** '₹1,500' or '₹1,499.50': how a message a shopper reads shows an amount. */
export function formatRupees(paise: number): string {
  const fraction = paise % 100 === 0 ? 0 : 2;
  return `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: fraction, maximumFractionDigits: 2 })}`;
}

/** Percentage of the total (capped by the coupon's max discount) or the fixed amount, never above the total. */
export function discountFor(discount: Discount, orderTotalPaise: number): number {
  const raw =
    discount.type === 'fixed'
      ? discount.amountPaise
      : Math.min(
          Math.round((orderTotalPaise * discount.basisPoints) / 10_000),
          discount.maxDiscountPaise ?? Number.POSITIVE_INFINITY,
        );
  return Math.max(0, Math.min(raw, orderTotalPaise));
}

export type Eligibility = { ok: true; discountPaise: number } | { ok: false; message: string };

/** Whether a coupon applies to an order now, and for how much; else the reason, worded for the shopper. */
export function checkEligibility(
  terms: CouponTerms,
  order: { orderTotalPaise: number; usesCounted: number; now: Date },
): Eligibility {
  if (!terms.isActive) return { ok: false, message: 'This coupon is not active' };
  if (terms.validFrom !== null && order.now < boundInstant(terms.validFrom, 'start'))
    return { ok: false, message: 'This coupon is not valid yet' };
  if (terms.validUntil !== null && order.now > boundInstant(terms.validUntil, 'end'))
    return { ok: false, message: 'This coupon has expired' };
  if (terms.usageLimit !== null && order.usesCounted >= terms.usageLimit)
    return { ok: false, message: 'Coupon usage limit reached' };
  if (order.orderTotalPaise < terms.minOrderPaise)
    return { ok: false, message: `Minimum order amount is ${formatRupees(terms.minOrderPaise)}` };
  return { ok: true, discountPaise: discountFor(terms.discount, order.orderTotalPaise) };
}

export const COUPON_STATUSES = ['Inactive', 'Expired', 'Limit Reached', 'Active'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

/** The admin list's status, checked in the seed's order. */
export function couponStatus(
  terms: Pick<CouponTerms, 'isActive' | 'validUntil' | 'usageLimit'>,
  usedCount: number,
  now: Date,
): CouponStatus {
  if (!terms.isActive) return 'Inactive';
  if (terms.validUntil !== null && now > boundInstant(terms.validUntil, 'end')) return 'Expired';
  if (terms.usageLimit !== null && usedCount >= terms.usageLimit) return 'Limit Reached';
  return 'Active';
}

/** Why a set of terms cannot be recorded (the API's checks, repeated where the domain relies on them). */
export function termsProblem(terms: CouponTerms): string | null {
  const amount = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!terms.code) return 'Coupon code is required';
  if (terms.discount.type === 'percentage') {
    if (!amount(terms.discount.basisPoints)) return 'Discount value must be at least 0';
    if (terms.discount.basisPoints > 10_000) return 'Percentage discount cannot be more than 100';
    if (terms.discount.maxDiscountPaise !== null && !amount(terms.discount.maxDiscountPaise))
      return 'Max discount must be at least 0';
  } else if (!amount(terms.discount.amountPaise)) return 'Discount value must be at least 0';
  if (!amount(terms.minOrderPaise)) return 'Minimum order amount must be at least 0';
  if (terms.usageLimit !== null && (!Number.isSafeInteger(terms.usageLimit) || terms.usageLimit < 1))
    return 'Usage limit must be a whole number of at least 1';
  if (
    terms.validFrom !== null &&
    terms.validUntil !== null &&
    boundInstant(terms.validUntil, 'end') < boundInstant(terms.validFrom, 'start')
  )
    return 'Valid until cannot be before valid from';
  return null;
}
