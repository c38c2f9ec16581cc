import { defineProjection } from '@shop/shared/bus/projection';
import type { TestimonialEvent } from '../../testimonial/events.ts';

export const TESTIMONIALS_PROJECTION = 'accounts.testimonials';

/** accounts.testimonials: one row per review not deleted, with its moderation status. */
export const testimonialsProjection = defineProjection<TestimonialEvent>({
  name: TESTIMONIALS_PROJECTION,
  schema: 'accounts',
  sources: ['accounts'],
  on: {
    async TestimonialSubmitted(d, tx, event) {
      await tx.query(
        `INSERT INTO accounts.testimonials (id, user_id, rating, text, status, created_at, submitted_position, updated_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6, $5) ON CONFLICT (id) DO NOTHING`,
        [d.testimonialId, d.userId, d.rating, d.text, d.submittedAt, event.globalPosition.toString()],
      );
    },
    async TestimonialModerated(d, tx) {
      await tx.query(`UPDATE accounts.testimonials SET status = $2, updated_at = $3 WHERE id = $1`, [
        d.testimonialId,
        d.to,
        d.at,
      ]);
    },
    async TestimonialDeleted(d, tx) {
      await tx.query(`DELETE FROM accounts.testimonials WHERE id = $1`, [d.testimonialId]);
    },
  },
});
