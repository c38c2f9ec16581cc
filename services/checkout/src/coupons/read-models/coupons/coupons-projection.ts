import { defineProjection } from '@shop/shared/bus/projection';
import type { CouponEvent, CouponTerms } from '../../coupon/events.ts';

export const COUPONS_PROJECTION = 'checkout.coupons';

/** The terms as checkout.coupons columns, in the order of TERM_COLUMNS. */
export const termValues = (t: CouponTerms) => [
  t.code,
  t.discount.type,
  t.discount.type === 'percentage' ? t.discount.basisPoints : null,
  t.discount.type === 'fixed' ? t.discount.amountPaise : null,
  t.discount.type === 'percentage' ? t.discount.maxDiscountPaise : null,
  t.minOrderPaise,
  t.usageLimit,
  t.validFrom,
  t.validUntil,
  t.description,
  t.isActive,
];
export const TERM_COLUMNS = [
  'code',
  'discount_type',
  'discount_basis_points',
  'discount_amount_paise',
  'max_discount_paise',
  'min_order_paise',
  'usage_limit',
  'valid_from',
  'valid_until',
  'description',
  'is_active',
];

/** checkout.coupons: live coupons with their use counts, for the admin list and coupon validation. */
export const couponsProjection = defineProjection<CouponEvent>({
  name: COUPONS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  on: {
    async CouponCreated({ couponId, createdAt, ...terms }, tx) {
      const params = TERM_COLUMNS.map((_, i) => `$${i + 3}`).join(', ');
      await tx.query(
        `INSERT INTO checkout.coupons (id, created_at, updated_at, ${TERM_COLUMNS.join(', ')})
         VALUES ($1, $2, $2, ${params}) ON CONFLICT (id) DO NOTHING`,
        [couponId, createdAt, ...termValues(terms)],
      );
    },
    async CouponUpdated({ couponId, updatedAt, ...terms }, tx) {
      const sets = TERM_COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ');
      await tx.query(`UPDATE checkout.coupons SET updated_at = $2, ${sets} WHERE id = $1`, [
        couponId,
        updatedAt,
        ...termValues(terms),
      ]);
    },
    async CouponDeleted(d, tx) {
      await tx.query(`DELETE FROM checkout.coupons WHERE id = $1`, [d.couponId]);
    },
    async CouponUseReserved(d, tx) {
      await tx.query(`UPDATE checkout.coupons SET reserved_uses = reserved_uses + 1 WHERE id = $1`, [d.couponId]);
    },
    async CouponUseReleased(d, tx) {
      await tx.query(`UPDATE checkout.coupons SET reserved_uses = reserved_uses - 1 WHERE id = $1`, [d.couponId]);
    },
    async CouponUseCommitted(d, tx) {
      await tx.query(
        `UPDATE checkout.coupons SET reserved_uses = reserved_uses - 1, committed_uses = committed_uses + 1 WHERE id = $1`,
        [d.couponId],
      );
    },
  },
});
