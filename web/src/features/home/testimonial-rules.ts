// The testimonial form's rules (seed 000, section 5): logged in, text non-empty after trimming, rating a
// whole number 1-5 with 5 by default.

export const LOGIN_TO_REVIEW_MESSAGE = 'Please login to submit a review';
export const REVIEW_TEXT_REQUIRED_MESSAGE = 'Please enter your review text';
export const REVIEW_FAILED_TITLE = 'Failed to submit review';
export const DEFAULT_RATING = 5;
export const RATINGS = [5, 4, 3, 2, 1] as const;

export type TestimonialDraft = { rating: number; text: string };

/** The message refusing the draft, or null when it may be sent. */
export function testimonialProblem(draft: TestimonialDraft, loggedIn: boolean): string | null {
  if (!loggedIn) return LOGIN_TO_REVIEW_MESSAGE;
  if (!draft.text.trim()) return REVIEW_TEXT_REQUIRED_MESSAGE;
  return null;
}

/** What POST /testimonials is sent: the text trimmed and the rating kept to a whole number 1-5. */
export function testimonialPayload(draft: TestimonialDraft): TestimonialDraft {
  const rating = Number.isFinite(draft.rating) ? Math.round(draft.rating) : DEFAULT_RATING;
  return { rating: Math.min(5, Math.max(1, rating)), text: draft.text.trim() };
}

/** Five stars, the first `rating` of them filled. */
export function starsFor(rating: number): boolean[] {
  return Array.from({ length: 5 }, (_, index) => index < rating);
}
