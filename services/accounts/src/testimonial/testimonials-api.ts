import type { RequestHandler } from 'express';
import { z } from 'zod';
import { isServiceSubject } from '@shop/shared/auth/tokens';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '@shop/shared/errors/errors';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { RATING_MESSAGE } from './decider.ts';
import { DEFAULT_RATING, TESTIMONIAL_STATUSES, testimonialStreamId } from './events.ts';
import type { Testimonials } from './testimonials.ts';
import { TESTIMONIALS_PROJECTION } from '../read-models/testimonials/testimonials-projection.ts';
import {
  asPublicTestimonial,
  countPendingTestimonials,
  findTestimonial,
  listAllTestimonials,
  listApprovedTestimonials,
} from '../read-models/testimonials/testimonials-queries.ts';

export const LOGIN_TO_REVIEW_MESSAGE = 'Please login to submit a review';

/**
 * One account may submit at most `perHour` reviews an hour (a fixed window, counted per account in the
 * shared rate-limit store; refused submissions do not count) and have at most `pending` waiting for
 * moderation: one account cannot flood the admin's moderation list (issue 27: 60 reviews in 6.6 s).
 */
export const REVIEW_LIMITS = { perHour: 5, pending: 3 } as const;
export const TOO_MANY_REVIEWS_MESSAGE = `You can submit at most ${REVIEW_LIMITS.perHour} reviews an hour, please try again later`;
export const TOO_MANY_PENDING_MESSAGE = `You already have ${REVIEW_LIMITS.pending} reviews waiting for approval; you can submit another once they have been moderated`;

// The rules (text required after trimming, whole rating 1-5) are the decider's; this only reads the input:
// no rating means the seeds' default 5, a form's '4' is 4, and text that is not text is no text.
export const SubmitBody = z.object({
  rating: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? DEFAULT_RATING : typeof v === 'string' ? Number(v) : v),
    z.number(RATING_MESSAGE),
  ),
  text: z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string()),
});
export const ModerateBody = z.object({
  status: z.enum(TESTIMONIAL_STATUSES, 'Status must be pending, approved or rejected'),
});
export const IdParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Bad testimonial id') });

/** The guard of POST /api/testimonials: a shopper's own account (a service token is no one who could write a review). */
export const requireReviewer: RequestHandler = (req, _res, next) => {
  next(!req.user || isServiceSubject(req.user.id) ? new UnauthorizedError(LOGIN_TO_REVIEW_MESSAGE) : undefined);
};

const MODERATED_MESSAGE = {
  approved: 'Testimonial approved',
  rejected: 'Testimonial rejected',
  pending: 'Testimonial set back to pending',
} as const;

/** What the testimonial routes use. */
export type TestimonialsPorts = Pick<ServiceContext, 'pool' | 'waitForProjection'> & { testimonials: Testimonials };

const route = routeOf<TestimonialsPorts>('accounts');

const reviewLimit = () => [
  rateLimit({
    name: 'testimonial-submissions',
    windowMs: 60 * 60_000,
    max: REVIEW_LIMITS.perHour,
    message: TOO_MANY_REVIEWS_MESSAGE,
    key: (req) => req.user!.id,
    countSuccessesOnly: true,
  }),
];

const waitForTestimonial = (ctx: TestimonialsPorts, testimonialId: string, version: number) =>
  awaitReadable(
    ctx,
    { schema: 'accounts', consumer: TESTIMONIALS_PROJECTION },
    { streamId: testimonialStreamId(testimonialId), version },
    'Saved, but the testimonials list has not caught up yet; refresh in a moment',
  );
const readBack = async (ctx: TestimonialsPorts, testimonialId: string, version: number) => {
  await waitForTestimonial(ctx, testimonialId, version);
  const found = await findTestimonial(ctx.pool, testimonialId);
  if (!found) throw new NotFoundError('Testimonial not found');
  return found;
};

/** Routes of testimonials: /api/testimonials/... (shoppers submit, admins moderate, everyone reads approved). */
export const TESTIMONIALS_ROUTES = [
  route({
    method: 'get',
    path: '/api/testimonials',
    auth: 'public',
    summary: 'Approved reviews, newest first',
    responses: { 200: '[{id, rating, text, status, createdAt, User: {name}}]' },
    handler: (ctx) => async (_req, res) => {
      res.json(await listApprovedTestimonials(ctx.pool));
    },
  }),
  route({
    method: 'post',
    path: '/api/testimonials',
    auth: 'user',
    guard: requireReviewer,
    summary: 'Submit a review (pending until an admin approves it)',
    body: SubmitBody,
    middleware: reviewLimit,
    responses: {
      201: '{message, testimonial} (the testimonial also at the top)',
      400: 'Bad input: review text required, rating a whole number 1-5',
      401: 'Please login to submit a review',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const user = req.user!;
        // Read from the projection, which every earlier submission waited for before answering.
        if ((await countPendingTestimonials(ctx.pool, user.id)) >= REVIEW_LIMITS.pending)
          throw new TooManyRequestsError(TOO_MANY_PENDING_MESSAGE);
        const { testimonialId, version } = await ctx.testimonials.submit({ userId: user.id, ...body });
        const testimonial = asPublicTestimonial(await readBack(ctx, testimonialId, version));
        res.status(201).json({
          message: 'Thank you for your review! It will appear once it has been approved.',
          ...testimonial,
          testimonial,
        });
      },
  }),
  route({
    method: 'get',
    path: '/api/testimonials/admin/all',
    auth: 'admin',
    summary: 'Every review in every status (admin)',
    responses: {
      200: 'List of testimonials with userId and User {name, email}',
      401: 'Not signed in',
      403: 'Not an admin',
    },
    handler: (ctx) => async (_req, res) => {
      res.json(await listAllTestimonials(ctx.pool));
    },
  }),
  route({
    method: 'put',
    path: '/api/testimonials/admin/:id',
    auth: 'admin',
    summary: 'Moderate a review: pending, approved or rejected (admin)',
    params: IdParam,
    body: ModerateBody,
    responses: {
      200: '{message, ...testimonial}',
      400: 'Bad id or status',
      401: 'Not signed in',
      403: 'Not an admin',
      404: 'Testimonial not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id }, body: { status } }) => {
        const version = await ctx.testimonials.moderate(id, status, req.user!.id);
        res.json({ message: MODERATED_MESSAGE[status], ...(await readBack(ctx, id, version)) });
      },
  }),
  route({
    method: 'delete',
    path: '/api/testimonials/admin/:id',
    auth: 'admin',
    summary: 'Delete a review (admin)',
    params: IdParam,
    responses: {
      200: '{message, id}',
      400: 'Bad id',
      401: 'Not signed in',
      403: 'Not an admin',
      404: 'Testimonial not found',
      503: 'Deleted but the list has not caught up',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { id } }) => {
        await waitForTestimonial(ctx, id, await ctx.testimonials.delete(id, req.user!.id));
        res.json({ message: 'Testimonial deleted', id });
      },
  }),
];
