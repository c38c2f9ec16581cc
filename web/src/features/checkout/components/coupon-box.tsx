import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { TextField } from '@/components/form/text-field';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/money';
import { useValidateCouponMutation } from '../api/checkout-api';
import { normaliseCouponCode } from '../checkout-rules';
import styles from './checkout-page.module.css';

export type AppliedCoupon = { code: string; discountAmount: number };

type CouponBoxProps = {
  /** The order total the coupon is checked against (the subtotal). */
  orderTotal: number;
  applied: AppliedCoupon | null;
  onChange: (coupon: AppliedCoupon | null) => void;
  disabled?: boolean;
};

/** The coupon box: a code checked by the server, then the applied code and amount off with Remove. */
export function CouponBox({ orderTotal, applied, onChange, disabled }: CouponBoxProps) {
  const dispatch = useAppDispatch();
  const [code, setCode] = useState('');
  const [validateCoupon, { isLoading }] = useValidateCouponMutation();

  async function apply(event: FormEvent) {
    event.preventDefault();
    const normalised = normaliseCouponCode(code);
    if (!normalised) {
      dispatch(notificationShown({ type: 'error', title: 'Please enter a coupon code' }));
      return;
    }
    try {
      const answer = await validateCoupon({ code: normalised, orderTotal }).unwrap();
      if (!answer.valid) {
        dispatch(
          notificationShown({
            type: 'error',
            title: 'Invalid coupon',
            message: answer.message || 'Coupon code is invalid',
          }),
        );
        return;
      }
      const coupon = { code: answer.coupon?.code ?? normalised, discountAmount: answer.discountAmount };
      onChange(coupon);
      setCode('');
      dispatch(
        notificationShown({
          type: 'success',
          title: 'Coupon applied!',
          message: `You saved ${formatRupees(coupon.discountAmount)}`,
        }),
      );
    } catch (error) {
      dispatch(
        notificationShown({
          type: 'error',
          title: 'Coupon validation failed',
          message: errorMessage(error, 'Failed to validate coupon'),
        }),
      );
    }
  }

  function remove() {
    onChange(null);
    dispatch(notificationShown({ type: 'info', title: 'Coupon removed' }));
  }

  if (applied) {
    return (
      <div className={styles.appliedCoupon} aria-label="Applied coupon" role="group">
        <p>
          <strong>{applied.code}</strong> applied: {formatRupees(applied.discountAmount)} off
        </p>
        <button type="button" className="btn btn-outline btn-sm" onClick={remove} disabled={disabled}>
          Remove coupon
        </button>
      </div>
    );
  }

  return (
    <form className={styles.couponForm} onSubmit={(event) => void apply(event)} noValidate>
      <TextField
        label="Coupon code"
        name="coupon"
        autoComplete="off"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        disabled={disabled}
      />
      <button type="submit" className="btn btn-outline" disabled={disabled || isLoading}>
        {isLoading ? 'Checking...' : 'Apply'}
      </button>
    </form>
  );
}
