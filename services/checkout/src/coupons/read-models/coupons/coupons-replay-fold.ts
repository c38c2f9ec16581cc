import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { CouponEvent } from '../../coupon/events.ts';
import { TERM_COLUMNS, termValues } from './coupons-projection.ts';

/** The replay's in-memory fold of checkout.coupons (coupons-projection.ts). */
export function couponsReplayFold(): ReplayFold {
  const coupons = new KeyedRows('checkout.coupons', [
    'id',
    'created_at',
    'updated_at',
    ...TERM_COLUMNS,
    'committed_uses',
    'reserved_uses',
  ]);
  return defineReplayFold<CouponEvent>({
    on: {
      CouponCreated({ couponId, createdAt, ...terms }) {
        coupons.insert(couponId, [couponId, createdAt, createdAt, ...termValues(terms), 0, 0]);
      },
      CouponUpdated({ couponId, updatedAt, ...terms }) {
        coupons.updateColumns(couponId, ['updated_at', ...TERM_COLUMNS], [updatedAt, ...termValues(terms)]);
      },
      CouponDeleted(d) {
        coupons.delete(d.couponId);
      },
      CouponUseReserved(d) {
        coupons.add(d.couponId, 'reserved_uses', 1);
      },
      CouponUseReleased(d) {
        coupons.add(d.couponId, 'reserved_uses', -1);
      },
      CouponUseCommitted(d) {
        coupons.add(d.couponId, 'reserved_uses', -1);
        coupons.add(d.couponId, 'committed_uses', 1);
      },
    },
    tables: [coupons],
  });
}
