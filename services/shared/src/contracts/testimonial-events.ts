/**
 * Events of a testimonial (`testimonial-<id>` streams in the accounts schema): a shopper's review of the
 * shop, moderated by an admin. Other services (the order service's dashboard figures) read them.
 */
export type TestimonialStatus = 'pending' | 'approved' | 'rejected';

export const testimonialStreamId = (testimonialId: string) => `testimonial-${testimonialId}`;

/** A logged-in shopper submitted a review; it starts pending and is public only once approved. */
export type TestimonialSubmitted = {
  type: 'TestimonialSubmitted';
  data: { testimonialId: string; userId: string; rating: number; text: string; submittedAt: string };
};
/** An admin set the review's status (approved, rejected, or back to pending). */
export type TestimonialModerated = {
  type: 'TestimonialModerated';
  data: { testimonialId: string; from: TestimonialStatus; to: TestimonialStatus; by: string; at: string };
};
/** An admin deleted the review. */
export type TestimonialDeleted = {
  type: 'TestimonialDeleted';
  data: { testimonialId: string; by: string; at: string };
};
export type TestimonialEvent = TestimonialSubmitted | TestimonialModerated | TestimonialDeleted;
