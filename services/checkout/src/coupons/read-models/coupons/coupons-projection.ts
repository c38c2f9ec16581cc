import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
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
export const TERM_COLUMNS: readonly string[] = [
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

const tables = {
  coupons: table('checkout.coupons', {
    key: ['id'],
    columns: ['id', 'created_at', 'updated_at', ...TERM_COLUMNS, 'committed_uses', 'reserved_uses'],
  }),
};

/** checkout.coupons: live coupons with their use counts, for the admin list and coupon validation. */
export const couponsReadModel = defineReadModel<CouponEvent, typeof tables>({
  name: COUPONS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  tables,
  evolve: {
    CouponCreated({ couponId, createdAt, ...terms }, { coupons }) {
      const values = termValues(terms);
      coupons.insert({
        id: couponId,
        created_at: createdAt,
        updated_at: createdAt,
        ...Object.fromEntries(TERM_COLUMNS.map((c, i) => [c, values[i]])),
        committed_uses: 0,
        reserved_uses: 0,
      });
    },
    CouponUpdated({ couponId, updatedAt, ...terms }, { coupons }) {
      const values = termValues(terms);
      coupons.update(couponId, {
        updated_at: updatedAt,
        ...Object.fromEntries(TERM_COLUMNS.map((c, i) => [c, values[i]])),
      });
    },
    CouponDeleted(d, { coupons }) {
      coupons.delete(d.couponId);
    },
    CouponUseReserved(d, { coupons }) {
      coupons.add(d.couponId, 'reserved_uses', 1);
    },
    CouponUseReleased(d, { coupons }) {
      coupons.add(d.couponId, 'reserved_uses', -1);
    },
    CouponUseCommitted(d, { coupons }) {
      coupons.add(d.couponId, 'reserved_uses', -1);
      coupons.add(d.couponId, 'committed_uses', 1);
    },
    CouponUseReturned(d, { coupons }) {
      coupons.add(d.couponId, 'committed_uses', -1);
    },
  },
});

export const couponsProjection = readModelConsumer(couponsReadModel);
