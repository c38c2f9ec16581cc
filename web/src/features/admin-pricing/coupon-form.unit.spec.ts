import { describe, expect, it } from 'vitest';
import { couponFormToInput, couponToForm, emptyCouponForm } from './coupon-form';

describe('couponFormToInput', () => {
  it('upper-cases the code and turns blanks into unlimited / none', () => {
    const result = couponFormToInput({ ...emptyCouponForm, code: ' diwali10 ', discountValue: '10' });
    expect(result).toEqual({
      ok: true,
      input: {
        code: 'DIWALI10',
        discountType: 'percentage',
        discountValue: 10,
        minOrderAmount: 0,
        maxDiscount: null,
        usageLimit: null,
        validFrom: null,
        validUntil: null,
        description: '',
        isActive: true,
      },
    });
  });

  it('requires a code and a discount value', () => {
    expect(couponFormToInput({ ...emptyCouponForm, discountValue: '5' })).toMatchObject({ ok: false, field: 'code' });
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A' })).toMatchObject({ ok: false, field: 'discountValue' });
  });

  it('caps a percentage at 100 but not a fixed amount', () => {
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '100.01' })).toMatchObject({ ok: false });
    expect(
      couponFormToInput({ ...emptyCouponForm, code: 'A', discountType: 'fixed', discountValue: '250.50' }),
    ).toMatchObject({ ok: true, input: { discountValue: 250.5 } });
  });

  it('allows at most 2 decimals and no negatives', () => {
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '1.234' })).toMatchObject({ ok: false });
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '-1' })).toMatchObject({ ok: false });
    expect(
      couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '5', minOrderAmount: '-2' }),
    ).toMatchObject({ ok: false, field: 'minOrderAmount' });
  });

  it('needs a usage limit of at least 1 when one is given', () => {
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '5', usageLimit: '0' })).toMatchObject({
      ok: false,
      field: 'usageLimit',
    });
    expect(couponFormToInput({ ...emptyCouponForm, code: 'A', discountValue: '5', usageLimit: '3' })).toMatchObject({
      ok: true,
      input: { usageLimit: 3 },
    });
  });

  it('sends a max discount only for a percentage coupon', () => {
    const base = { ...emptyCouponForm, code: 'A', discountValue: '5', maxDiscount: '200' };
    expect(couponFormToInput(base)).toMatchObject({ ok: true, input: { maxDiscount: 200 } });
    expect(couponFormToInput({ ...base, discountType: 'fixed' })).toMatchObject({
      ok: true,
      input: { maxDiscount: null },
    });
  });
});

describe('couponToForm', () => {
  it('shows an instant bound as the India day it falls on', () => {
    const form = couponToForm({
      id: '1',
      code: 'X',
      discountType: 'fixed',
      discountValue: 50,
      minOrderAmount: 0,
      maxDiscount: null,
      usageLimit: null,
      usedCount: 0,
      validFrom: '2026-11-21T20:00:00.000Z',
      validUntil: '2026-12-31',
      description: '',
      isActive: true,
    });
    expect(form.validFrom).toBe('2026-11-22');
    expect(form.validUntil).toBe('2026-12-31');
    expect(form.usageLimit).toBe('');
  });
});
