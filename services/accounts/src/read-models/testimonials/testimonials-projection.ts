import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { TestimonialEvent } from '../../testimonial/events.ts';

export const TESTIMONIALS_PROJECTION = 'accounts.testimonials';

const tables = {
  testimonials: table('accounts.testimonials', {
    key: ['id'],
    columns: ['id', 'user_id', 'rating', 'text', 'status', 'created_at', 'submitted_position', 'updated_at'],
  }),
};

/** accounts.testimonials: one row per review not deleted, with its moderation status. */
export const testimonialsReadModel = defineReadModel<TestimonialEvent, typeof tables>({
  name: TESTIMONIALS_PROJECTION,
  schema: 'accounts',
  sources: ['accounts'],
  tables,
  evolve: {
    TestimonialSubmitted(d, { testimonials }, event) {
      testimonials.insert({
        id: d.testimonialId,
        user_id: d.userId,
        rating: d.rating,
        text: d.text,
        status: 'pending',
        created_at: d.submittedAt,
        submitted_position: event.globalPosition.toString(),
        updated_at: d.submittedAt,
      });
    },
    TestimonialModerated(d, { testimonials }) {
      testimonials.update(d.testimonialId, { status: d.to, updated_at: d.at });
    },
    TestimonialDeleted(d, { testimonials }) {
      testimonials.delete(d.testimonialId);
    },
  },
});

export const testimonialsProjection = readModelConsumer(testimonialsReadModel);
