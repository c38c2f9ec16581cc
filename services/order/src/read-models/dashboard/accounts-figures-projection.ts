import { z } from 'zod';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import type { TestimonialStatus } from '@shop/shared/contracts/testimonial-events';
import { announceFigures, FIGURE_CHANGED, type FigureChanged } from '../../push/dashboard-changes.ts';

export const ACCOUNTS_FIGURES_PROJECTION = 'orders.dashboard_accounts';

// Accounts events as this service relies on them: checked, not trusted (only the fields used here).
const id = z.string().min(1);
const status = z.enum(['pending', 'approved', 'rejected']) satisfies z.ZodType<TestimonialStatus>;
const UserRegistered = z.object({ userId: id });
const TestimonialSubmitted = z.object({ testimonialId: id });
const TestimonialModerated = z.object({ testimonialId: id, to: status });
const TestimonialDeleted = z.object({ testimonialId: id });

/**
 * orders.dashboard_users and orders.dashboard_testimonials: the user count and the pending testimonials of
 * the admin dashboard, from the accounts events. A testimonial's events share its stream, so they arrive
 * in order; users are independent of each other.
 */
export function accountsFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return {
    name: ACCOUNTS_FIGURES_PROJECTION,
    schema: 'orders',
    sources: ['accounts'],
    eventTypes: ['UserRegistered', 'TestimonialSubmitted', 'TestimonialModerated', 'TestimonialDeleted'],
    async handle(event, tx) {
      let changed;
      switch (event.type) {
        case 'UserRegistered':
          changed = await tx.query(`INSERT INTO orders.dashboard_users (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, [
            UserRegistered.parse(event.data).userId,
          ]);
          break;
        case 'TestimonialSubmitted':
          changed = await tx.query(
            `INSERT INTO orders.dashboard_testimonials (testimonial_id, status) VALUES ($1, 'pending')
             ON CONFLICT DO NOTHING`,
            [TestimonialSubmitted.parse(event.data).testimonialId],
          );
          break;
        case 'TestimonialModerated': {
          const d = TestimonialModerated.parse(event.data);
          changed = await tx.query(
            `INSERT INTO orders.dashboard_testimonials AS t (testimonial_id, status) VALUES ($1, $2)
             ON CONFLICT (testimonial_id) DO UPDATE SET status = EXCLUDED.status WHERE t.status <> EXCLUDED.status`,
            [d.testimonialId, d.to],
          );
          break;
        }
        case 'TestimonialDeleted':
          changed = await tx.query(`DELETE FROM orders.dashboard_testimonials WHERE testimonial_id = $1`, [
            TestimonialDeleted.parse(event.data).testimonialId,
          ]);
          break;
        default:
          return;
      }
      if (changed.rowCount === 1) return FIGURE_CHANGED;
    },
    afterCommit: (changed) => announceFigures(pubsub, changed),
  };
}
