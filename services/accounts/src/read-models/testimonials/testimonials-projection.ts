import type { EventConsumer } from '@shop/shared/bus/types';
import type { TestimonialEvent } from '../../testimonial/events.ts';

export const TESTIMONIALS_PROJECTION = 'accounts.testimonials';

/** accounts.testimonials: one row per review not deleted, with its moderation status. */
export const testimonialsProjection: EventConsumer = {
  name: TESTIMONIALS_PROJECTION,
  schema: 'accounts',
  sources: ['accounts'],
  eventTypes: ['TestimonialSubmitted', 'TestimonialModerated', 'TestimonialDeleted'],
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as TestimonialEvent;
    switch (e.type) {
      case 'TestimonialSubmitted': {
        const d = e.data;
        await tx.query(
          `INSERT INTO accounts.testimonials (id, user_id, rating, text, status, created_at, submitted_position, updated_at)
           VALUES ($1, $2, $3, $4, 'pending', $5, $6, $5) ON CONFLICT (id) DO NOTHING`,
          [d.testimonialId, d.userId, d.rating, d.text, d.submittedAt, event.globalPosition.toString()],
        );
        return;
      }
      case 'TestimonialModerated':
        await tx.query(`UPDATE accounts.testimonials SET status = $2, updated_at = $3 WHERE id = $1`, [
          e.data.testimonialId,
          e.data.to,
          e.data.at,
        ]);
        return;
      case 'TestimonialDeleted':
        await tx.query(`DELETE FROM accounts.testimonials WHERE id = $1`, [e.data.testimonialId]);
        return;
      default: {
        const never: never = e;
        throw new Error(`Unhandled event ${JSON.stringify(never)}`);
      }
    }
  },
};
