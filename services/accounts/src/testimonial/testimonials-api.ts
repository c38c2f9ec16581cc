import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { isServiceSubject, requireAdmin } from '@shop/shared/auth/tokens';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '@shop/shared/errors/errors';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { parseInput } from '@shop/shared/http/validation';
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

/** Routes of testimonials: /api/testimonials/... (shoppers submit, admins moderate, everyone reads approved). */
export function testimonialsRouter(ctx: ServiceContext, testimonials: Testimonials): Router {
  const r = Router();
  const reviewLimit = rateLimit({
    name: 'testimonial-submissions',
    windowMs: 60 * 60_000,
    max: REVIEW_LIMITS.perHour,
    message: TOO_MANY_REVIEWS_MESSAGE,
    key: (req) => req.user!.id,
    countSuccessesOnly: true,
  });

  const waitForTestimonial = (testimonialId: string, version: number) =>
    awaitReadable(
      ctx,
      { schema: 'accounts', consumer: TESTIMONIALS_PROJECTION },
      { streamId: testimonialStreamId(testimonialId), version },
      'Saved, but the testimonials list has not caught up yet; refresh in a moment',
    );
  const readBack = async (testimonialId: string, version: number) => {
    await waitForTestimonial(testimonialId, version);
    const found = await findTestimonial(ctx.pool, testimonialId);
    if (!found) throw new NotFoundError('Testimonial not found');
    return found;
  };

  r.get('/api/testimonials', async (_req, res) => {
    res.json(await listApprovedTestimonials(ctx.pool));
  });

  r.post('/api/testimonials', requireReviewer, reviewLimit, async (req, res) => {
    const user = req.user!;
    const body = parseInput(SubmitBody, req.body ?? {});
    // Read from the projection, which every earlier submission waited for before answering.
    if ((await countPendingTestimonials(ctx.pool, user.id)) >= REVIEW_LIMITS.pending)
      throw new TooManyRequestsError(TOO_MANY_PENDING_MESSAGE);
    const { testimonialId, version } = await testimonials.submit({ userId: user.id, ...body });
    const testimonial = asPublicTestimonial(await readBack(testimonialId, version));
    res.status(201).json({
      message: 'Thank you for your review! It will appear once it has been approved.',
      ...testimonial,
      testimonial,
    });
  });

  r.get('/api/testimonials/admin/all', requireAdmin, async (_req, res) => {
    res.json(await listAllTestimonials(ctx.pool));
  });

  r.put('/api/testimonials/admin/:id', requireAdmin, async (req, res) => {
    const { id } = parseInput(IdParam, req.params);
    const { status } = parseInput(ModerateBody, req.body ?? {});
    const version = await testimonials.moderate(id, status, req.user!.id);
    res.json({ message: MODERATED_MESSAGE[status], ...(await readBack(id, version)) });
  });

  r.delete('/api/testimonials/admin/:id', requireAdmin, async (req, res) => {
    const { id } = parseInput(IdParam, req.params);
    await waitForTestimonial(id, await testimonials.delete(id, req.user!.id));
    res.json({ message: 'Testimonial deleted', id });
  });

  return r;
}
