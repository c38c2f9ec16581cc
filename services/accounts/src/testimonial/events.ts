/**
 * Events of the `testimonial-<id>` stream. They are a contract (the order service's dashboard counts pending
 * reviews), so they are defined in the shared library and only re-exported here.
 */
export {
  testimonialStreamId,
  type TestimonialDeleted,
  type TestimonialEvent,
  type TestimonialModerated,
  type TestimonialStatus,
  type TestimonialSubmitted,
} from '@shop/shared/contracts/testimonial-events';

import type { TestimonialStatus } from '@shop/shared/contracts/testimonial-events';

export const TESTIMONIAL_STATUSES = ['pending', 'approved', 'rejected'] as const satisfies readonly TestimonialStatus[];

/** The seeds' rating scale: whole stars from 1 to 5, 5 when none is given. */
export const MIN_RATING = 1;
export const MAX_RATING = 5;
export const DEFAULT_RATING = 5;
export const MAX_TEXT_LENGTH = 2000;
