import { z } from 'zod';
import { NotFoundError, UnavailableError } from '@shop/shared/errors/errors';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { booleanInput, hundredthsInput } from '@shop/shared/http/amount-input';
import { paiseToRupees } from '@shop/shared/money/money';
import type { Coupons } from './coupons.ts';
import { checkEligibility, normaliseValidityBound } from './coupon/eligibility.ts';
import { couponStreamId, normaliseCode, type CouponTerms } from './coupon/events.ts';
import { COUPONS_PROJECTION } from './read-models/coupons/coupons-projection.ts';
import {
  couponView,
  findCoupon,
  findCouponByCode,
  listCoupons,
  type CouponRecord,
} from './read-models/coupons/coupons-queries.ts';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const blankTo = (fallback: unknown) => (v: unknown) => (isBlank(v) ? fallback : v);

const validityBound = (label: string) =>
  z.preprocess(
    blankTo(null),
    z
      .string({ error: `${label} must be a date` })
      .transform((v, ctx) => {
        const bound = normaliseValidityBound(v);
        if (bound === null) ctx.issues.push({ code: 'custom', message: `${label} must be a date`, input: v });
        return bound ?? '';
      })
      .nullable(),
  );

// The admin form's fields (JSON or form text); the same for create and edit. Cross-field rules (percentage
// at most 100, valid until not before valid from) are the domain's, answered as 400 with the same wording.
export const CouponBody = z.object({
  code: z
    .string({ error: 'Coupon code is required' })
    .trim()
    .min(1, 'Coupon code is required')
    .max(40, 'Coupon code can have at most 40 characters')
    .regex(/^\S*$/, 'Coupon code cannot contain spaces')
    .transform(normaliseCode),
  discountType: z.enum(['percentage', 'fixed'], {
    error: (issue) =>
      issue.input === undefined ? 'Discount type is required' : 'Discount type must be percentage or fixed',
  }),
  discountValue: hundredthsInput('Discount value'),
  minOrderAmount: z.preprocess(blankTo(0), hundredthsInput('Minimum order amount')),
  // Offered for percentage coupons only; a value left over from the form is ignored for fixed ones.
  maxDiscount: z.preprocess(blankTo(null), hundredthsInput('Max discount').nullable()),
  usageLimit: z.preprocess(
    blankTo(null),
    z
      .preprocess(
        (v) => (typeof v === 'string' ? Number(v.trim()) : v),
        z
          .number({ error: 'Usage limit must be a whole number of at least 1' })
          .int('Usage limit must be a whole number of at least 1')
          .min(1, 'Usage limit must be a whole number of at least 1')
          .max(1_000_000_000, 'Usage limit is too large'),
      )
      .nullable(),
  ),
  validFrom: validityBound('Valid from'),
  validUntil: validityBound('Valid until'),
  description: z.preprocess(
    blankTo(''),
    z.string({ error: 'Description must be text' }).trim().max(500, 'Description can have at most 500 characters'),
  ),
  isActive: z.preprocess(blankTo(true), booleanInput('isActive')),
});
export const IdParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Bad coupon id') });
export const ValidateBody = z.object({
  code: z
    .string({ error: 'Please enter a coupon code' })
    .trim()
    .min(1, 'Please enter a coupon code')
    .max(100, 'Invalid coupon code')
    .transform(normaliseCode),
  // The browser's own subtotal, which may carry float noise: rounded to paise.
  orderTotal: hundredthsInput('Order total', { round: true }),
});

const toTerms = (body: z.infer<typeof CouponBody>): CouponTerms => ({
  code: body.code,
  discount:
    body.discountType === 'percentage'
      ? { type: 'percentage', basisPoints: body.discountValue, maxDiscountPaise: body.maxDiscount }
      : { type: 'fixed', amountPaise: body.discountValue },
  minOrderPaise: body.minOrderAmount,
  usageLimit: body.usageLimit,
  validFrom: body.validFrom,
  validUntil: body.validUntil,
  description: body.description,
  isActive: body.isActive,
});

/** What a shopper learns about a coupon they applied. */
const publicCoupon = (c: CouponRecord, now: Date) => {
  const { code, discountType, discountValue, minOrderAmount, maxDiscount, description, validUntil } = couponView(
    c,
    now,
  );
  return { code, discountType, discountValue, minOrderAmount, maxDiscount, description, validUntil };
};

/** What the coupon routes use. */
export type CouponsPorts = Pick<ServiceContext, 'pool' | 'clock' | 'waitForProjection'> & { coupons: Coupons };

const route = routeOf<CouponsPorts>('checkout');
const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

// Generous for a shopper applying a code, slow for someone guessing codes.
const validateLimit = () => [
  rateLimit({
    name: 'coupon-validate',
    windowMs: 60_000,
    max: 60,
    message: 'Too many coupon attempts, please try again in a minute',
  }),
];

const waitAndRead = async (ctx: CouponsPorts, couponId: string, version: number) => {
  await awaitReadable(
    ctx,
    { schema: 'checkout', consumer: COUPONS_PROJECTION },
    { streamId: couponStreamId(couponId), version },
    'Coupon saved, but the list has not caught up yet; refresh in a moment',
  );
  return findCoupon(ctx.pool, couponId);
};

/** Routes of coupons: admin management under /api/coupons, and /api/coupons/validate for shoppers. */
export const COUPON_ROUTES = [
  route({
    method: 'get',
    path: '/api/coupons',
    auth: 'admin',
    summary: 'Every coupon with usedCount and derived status',
    responses: { 200: 'List of coupons', ...ADMIN },
    handler: (ctx) => async (_req, res) => {
      const now = ctx.clock();
      res.json((await listCoupons(ctx.pool)).map((c) => couponView(c, now)));
    },
  }),
  route({
    method: 'post',
    path: '/api/coupons/validate',
    auth: 'public',
    summary: 'Check a coupon code against an order total',
    middleware: validateLimit,
    body: ValidateBody,
    responses: {
      200: '{valid, coupon, discountAmount, message}',
      400: 'Please enter a coupon code; bad order total',
      429: 'Too many coupon attempts',
    },
    handler:
      (ctx) =>
      async (_req, res, { body: { code, orderTotal } }) => {
        const now = ctx.clock();
        const coupon = await findCouponByCode(ctx.pool, code);
        const refuse = (message: string) => res.json({ valid: false, coupon: null, discountAmount: 0, message });
        if (!coupon) return void refuse('Invalid coupon code');
        const eligibility = checkEligibility(coupon.terms, {
          orderTotalPaise: orderTotal,
          usesCounted: coupon.committedUses + coupon.reservedUses,
          now,
        });
        if (!eligibility.ok) return void refuse(eligibility.message);
        res.json({
          valid: true,
          coupon: publicCoupon(coupon, now),
          discountAmount: paiseToRupees(eligibility.discountPaise),
          message: 'Coupon applied successfully',
        });
      },
  }),
  route({
    method: 'post',
    path: '/api/coupons',
    auth: 'admin',
    summary: 'Create a coupon',
    body: CouponBody,
    responses: {
      201: '{message, ...coupon}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      409: 'Coupon code already exists',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const { couponId, version } = await ctx.coupons.create(toTerms(body), req.user!.id);
        const coupon = await waitAndRead(ctx, couponId, version);
        if (!coupon) throw new UnavailableError('Coupon saved, but not yet readable; refresh in a moment');
        res.status(201).json({ message: 'Coupon created successfully', ...couponView(coupon, ctx.clock()) });
      },
  }),
  route({
    method: 'put',
    path: '/api/coupons/:id',
    auth: 'admin',
    summary: 'Change a coupon',
    params: IdParam,
    body: CouponBody,
    responses: {
      200: '{message, ...coupon}',
      400: 'Bad input (names the field)',
      ...ADMIN,
      404: 'Coupon not found',
      409: 'Coupon code already exists',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body }) => {
        const coupon = await waitAndRead(ctx, id, await ctx.coupons.update(id, toTerms(body), req.user!.id));
        if (!coupon) throw new NotFoundError('Coupon not found');
        res.json({ message: 'Coupon updated successfully', ...couponView(coupon, ctx.clock()) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/coupons/:id',
    auth: 'admin',
    summary: 'Delete a coupon',
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad coupon id',
      ...ADMIN,
      404: 'Coupon not found',
      503: 'Deleted but the list has not caught up',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        await waitAndRead(ctx, id, await ctx.coupons.remove(id, req.user!.id));
        res.json({ message: 'Coupon deleted successfully', id });
      },
  }),
];
