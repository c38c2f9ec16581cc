/**
 * Events of the `coupon-<id>` streams and the `coupon-code-<CODE>` uniqueness streams. Money is in paise.
 */

/** Percentages in hundredths of a percent (basis points: 1250 = 12.5 %), so every amount is an integer. */
export type Discount =
  { type: 'percentage'; basisPoints: number; maxDiscountPaise: number | null } | { type: 'fixed'; amountPaise: number };

/** What an admin sets on a coupon. */
export interface CouponTerms {
  /** Trimmed and upper-cased. */
  code: string;
  discount: Discount;
  minOrderPaise: number;
  /** null = unlimited. */
  usageLimit: number | null;
  /** A calendar day (YYYY-MM-DD, India time) or an ISO instant; null = no bound. */
  validFrom: string | null;
  validUntil: string | null;
  description: string;
  isActive: boolean;
}

export type CouponCreated = { type: 'CouponCreated'; data: CouponTerms & { couponId: string; createdAt: string } };
/** Carries all the terms after the change. */
export type CouponUpdated = { type: 'CouponUpdated'; data: CouponTerms & { couponId: string; updatedAt: string } };
export type CouponDeleted = { type: 'CouponDeleted'; data: { couponId: string; code: string; deletedAt: string } };
/** A checkout holds one use until its payment arrives (committed) or never does (released). */
export type CouponUseReserved = {
  type: 'CouponUseReserved';
  data: {
    couponId: string;
    code: string;
    reservationId: string;
    orderTotalPaise: number;
    discountPaise: number;
    reservedAt: string;
    /**
     * Who holds it, as keys the caller cannot choose freely (`user:<account id>`, or keyed hashes of a
     * guest's address and e-mail): one live hold per buyer. Absent on uses held before it was recorded.
     */
    buyers?: string[];
    /** When the checkout's hold lapses if unpaid (the use then no longer counts as the buyer's live hold). */
    heldUntil?: string | null;
  };
};
export type CouponUseReleased = {
  type: 'CouponUseReleased';
  data: { couponId: string; reservationId: string; releasedAt: string };
};
export type CouponUseCommitted = {
  type: 'CouponUseCommitted';
  data: { couponId: string; reservationId: string; committedAt: string };
};
/** A used (committed) use was given back: its order was cancelled. It no longer counts against the limit. */
export type CouponUseReturned = {
  type: 'CouponUseReturned';
  data: { couponId: string; reservationId: string; returnedAt: string };
};
export type CouponEvent =
  | CouponCreated
  | CouponUpdated
  | CouponDeleted
  | CouponUseReserved
  | CouponUseReleased
  | CouponUseCommitted
  | CouponUseReturned;

export type CouponCodeClaimed = { type: 'CouponCodeClaimed'; data: { code: string; couponId: string } };
export type CouponCodeReleased = { type: 'CouponCodeReleased'; data: { code: string; couponId: string } };
export type CouponCodeEvent = CouponCodeClaimed | CouponCodeReleased;

export const normaliseCode = (code: string) => code.trim().toUpperCase();
export const couponStreamId = (couponId: string) => `coupon-${couponId}`;
export const couponCodeStreamId = (code: string) => `coupon-code-${normaliseCode(code)}`;
