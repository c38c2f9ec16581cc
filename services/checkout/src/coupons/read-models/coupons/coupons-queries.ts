import type pg from 'pg';
import { paiseToRupees } from '@shop/shared/money/money';
import { couponStatus, type CouponStatus } from '../../coupon/eligibility.ts';
import type { CouponTerms } from '../../coupon/events.ts';

/** A coupon row read back as domain terms plus its use counts. */
export interface CouponRecord {
  id: string;
  terms: CouponTerms;
  committedUses: number;
  reservedUses: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A coupon as the admin API answers it (amounts in rupees, the discount value as the admin typed it). */
export interface CouponView {
  id: string;
  code: string;
  discountType: 'percentage' | 'fixed';
  /** Percent for percentage coupons, rupees for fixed ones. */
  discountValue: number;
  minOrderAmount: number;
  maxDiscount: number | null;
  usageLimit: number | null;
  /** Uses that count against the limit: committed plus those held by checkouts awaiting payment. */
  usedCount: number;
  /** Of usedCount, the uses held by checkouts awaiting payment. */
  reservedCount: number;
  validFrom: string | null;
  validUntil: string | null;
  description: string;
  isActive: boolean;
  status: CouponStatus;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  code: string;
  discount_type: 'percentage' | 'fixed';
  discount_basis_points: number | null;
  discount_amount_paise: bigint | null;
  max_discount_paise: bigint | null;
  min_order_paise: bigint;
  usage_limit: number | null;
  committed_uses: number;
  reserved_uses: number;
  valid_from: string | null;
  valid_until: string | null;
  description: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT id, code, discount_type, discount_basis_points, discount_amount_paise, max_discount_paise,
  min_order_paise, usage_limit, committed_uses, reserved_uses, valid_from, valid_until, description, is_active,
  created_at, updated_at FROM checkout.coupons`;

const toRecord = (r: Row): CouponRecord => ({
  id: r.id,
  terms: {
    code: r.code,
    discount:
      r.discount_type === 'percentage'
        ? {
            type: 'percentage',
            basisPoints: r.discount_basis_points ?? 0,
            maxDiscountPaise: r.max_discount_paise === null ? null : Number(r.max_discount_paise),
          }
        : { type: 'fixed', amountPaise: Number(r.discount_amount_paise ?? 0) },
    minOrderPaise: Number(r.min_order_paise),
    usageLimit: r.usage_limit,
    validFrom: r.valid_from,
    validUntil: r.valid_until,
    description: r.description,
    isActive: r.is_active,
  },
  committedUses: r.committed_uses,
  reservedUses: r.reserved_uses,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The admin view of a coupon; its status depends on `now` (expiry). */
export function couponView(c: CouponRecord, now: Date): CouponView {
  const { terms } = c;
  const usedCount = c.committedUses + c.reservedUses;
  return {
    id: c.id,
    code: terms.code,
    discountType: terms.discount.type,
    discountValue:
      terms.discount.type === 'percentage'
        ? terms.discount.basisPoints / 100
        : paiseToRupees(terms.discount.amountPaise),
    minOrderAmount: paiseToRupees(terms.minOrderPaise),
    maxDiscount:
      terms.discount.type === 'percentage' && terms.discount.maxDiscountPaise !== null
        ? paiseToRupees(terms.discount.maxDiscountPaise)
        : null,
    usageLimit: terms.usageLimit,
    usedCount,
    reservedCount: c.reservedUses,
    validFrom: terms.validFrom,
    validUntil: terms.validUntil,
    description: terms.description,
    isActive: terms.isActive,
    status: couponStatus(terms, usedCount, now),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** Newest first. */
export async function listCoupons(db: pg.Pool): Promise<CouponRecord[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY created_at DESC, id`);
  return rows.map(toRecord);
}

export async function findCoupon(db: pg.Pool, id: string): Promise<CouponRecord | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The live coupon with this (normalised) code. */
export async function findCouponByCode(db: pg.Pool, code: string): Promise<CouponRecord | null> {
  // Newest first: while a projection catches up, a deleted coupon's row may briefly share the code.
  const { rows } = await db.query<Row>(`${SELECT} WHERE code = $1 ORDER BY created_at DESC LIMIT 1`, [code]);
  return rows[0] ? toRecord(rows[0]) : null;
}
