import type { Coupon, CouponInput } from './api/pricing-api';

/** The coupon form as typed (every field text, as inputs hold it). */
export type CouponFormValues = {
  code: string;
  discountType: 'percentage' | 'fixed';
  discountValue: string;
  minOrderAmount: string;
  maxDiscount: string;
  usageLimit: string;
  validFrom: string;
  validUntil: string;
  description: string;
  isActive: boolean;
};

export const emptyCouponForm: CouponFormValues = {
  code: '',
  discountType: 'percentage',
  discountValue: '',
  minOrderAmount: '0',
  maxDiscount: '',
  usageLimit: '',
  validFrom: '',
  validUntil: '',
  description: '',
  isActive: true,
};

/** A validity bound as a date input holds it (YYYY-MM-DD), from a day or an instant. */
function toDateInput(bound: string | null): string {
  if (!bound) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(bound)) return bound;
  const at = new Date(bound);
  if (Number.isNaN(at.getTime())) return '';
  // The shop's day in India (UTC+5:30).
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

export function couponToForm(coupon: Coupon): CouponFormValues {
  return {
    code: coupon.code,
    discountType: coupon.discountType,
    discountValue: String(coupon.discountValue),
    minOrderAmount: String(coupon.minOrderAmount),
    maxDiscount: coupon.maxDiscount === null ? '' : String(coupon.maxDiscount),
    usageLimit: coupon.usageLimit === null ? '' : String(coupon.usageLimit),
    validFrom: toDateInput(coupon.validFrom),
    validUntil: toDateInput(coupon.validUntil),
    description: coupon.description,
    isActive: coupon.isActive,
  };
}

const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

/**
 * Checks the form by the seed's rules and builds what the API takes: code required and upper-cased;
 * discount value required, 2 decimals, at least 0, at most 100 for a percentage; minimum order 0 or more;
 * usage limit a whole number of at least 1 or empty for unlimited; max discount for percentages only.
 */
export function couponFormToInput(
  values: CouponFormValues,
): { ok: true; input: CouponInput } | { ok: false; field: keyof CouponFormValues; message: string } {
  const code = values.code.trim().toUpperCase();
  if (!code) return { ok: false, field: 'code', message: 'Coupon code is required' };
  const discount = values.discountValue.trim();
  if (!discount) return { ok: false, field: 'discountValue', message: 'Discount value is required' };
  if (!TWO_DECIMALS.test(discount))
    return {
      ok: false,
      field: 'discountValue',
      message: 'Discount value must be a number of 0 or more with up to 2 decimals',
    };
  const discountValue = Number(discount);
  if (values.discountType === 'percentage' && discountValue > 100)
    return { ok: false, field: 'discountValue', message: 'A percentage discount can be at most 100' };
  const minOrder = values.minOrderAmount.trim() || '0';
  if (!TWO_DECIMALS.test(minOrder))
    return {
      ok: false,
      field: 'minOrderAmount',
      message: 'Minimum order must be a number of 0 or more with up to 2 decimals',
    };
  const usage = values.usageLimit.trim();
  if (usage && (!/^\d+$/.test(usage) || Number(usage) < 1))
    return { ok: false, field: 'usageLimit', message: 'Usage limit must be a whole number of at least 1' };
  const maxDiscount = values.discountType === 'percentage' ? values.maxDiscount.trim() : '';
  if (maxDiscount && !TWO_DECIMALS.test(maxDiscount))
    return {
      ok: false,
      field: 'maxDiscount',
      message: 'Max discount must be a number of 0 or more with up to 2 decimals',
    };
  return {
    ok: true,
    input: {
      code,
      discountType: values.discountType,
      discountValue,
      minOrderAmount: Number(minOrder),
      maxDiscount: maxDiscount ? Number(maxDiscount) : null,
      usageLimit: usage ? Number(usage) : null,
      validFrom: values.validFrom || null,
      validUntil: values.validUntil || null,
      description: values.description.trim(),
      isActive: values.isActive,
    },
  };
}
