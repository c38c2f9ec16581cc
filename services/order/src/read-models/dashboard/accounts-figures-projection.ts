import { z } from 'zod';
import { defineProjection, type UncheckedEvents } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import type { TestimonialStatus } from '@shop/shared/contracts/testimonial-events';
import { announceFigures, type FigureChanged } from '../../push/dashboard-changes.ts';
import { figureIf } from './figure-changes.ts';

export const ACCOUNTS_FIGURES_PROJECTION = 'orders.dashboard_accounts';

// Accounts events as this service relies on them: checked, not trusted (only the fields used here).
const id = z.string().min(1);
const status = z.enum(['pending', 'approved', 'rejected']) satisfies z.ZodType<TestimonialStatus>;
const UserRegistered = z.object({ userId: id });
const TestimonialSubmitted = z.object({ testimonialId: id });
const TestimonialModerated = z.object({ testimonialId: id, to: status });
const TestimonialDeleted = z.object({ testimonialId: id });

/** The accounts events this read model handles, with their data as the schemas above check it. */
export type AccountsFact =
  | { type: 'UserRegistered'; data: z.infer<typeof UserRegistered> }
  | { type: 'TestimonialSubmitted'; data: z.infer<typeof TestimonialSubmitted> }
  | { type: 'TestimonialModerated'; data: z.infer<typeof TestimonialModerated> }
  | { type: 'TestimonialDeleted'; data: z.infer<typeof TestimonialDeleted> };

/**
 * orders.dashboard_users and orders.dashboard_testimonials: the user count and the pending testimonials of
 * the admin dashboard, from the accounts events. A testimonial's events share its stream, so they arrive
 * in order; users are independent of each other.
 */
export function accountsFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return defineProjection<UncheckedEvents<AccountsFact['type']>, FigureChanged>({
    name: ACCOUNTS_FIGURES_PROJECTION,
    schema: 'orders',
    sources: ['accounts'],
    on: {
      async UserRegistered(data, tx) {
        const { userId } = UserRegistered.parse(data);
        return figureIf(
          await tx.query(`INSERT INTO orders.dashboard_users (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, [userId]),
        );
      },
      async TestimonialSubmitted(data, tx) {
        const { testimonialId } = TestimonialSubmitted.parse(data);
        return figureIf(
          await tx.query(
            `INSERT INTO orders.dashboard_testimonials (testimonial_id, status) VALUES ($1, 'pending')
             ON CONFLICT DO NOTHING`,
            [testimonialId],
          ),
        );
      },
      async TestimonialModerated(data, tx) {
        const d = TestimonialModerated.parse(data);
        return figureIf(
          await tx.query(
            `INSERT INTO orders.dashboard_testimonials AS t (testimonial_id, status) VALUES ($1, $2)
             ON CONFLICT (testimonial_id) DO UPDATE SET status = EXCLUDED.status WHERE t.status <> EXCLUDED.status`,
            [d.testimonialId, d.to],
          ),
        );
      },
      async TestimonialDeleted(data, tx) {
        const { testimonialId } = TestimonialDeleted.parse(data);
        return figureIf(
          await tx.query(`DELETE FROM orders.dashboard_testimonials WHERE testimonial_id = $1`, [testimonialId]),
        );
      },
    },
    afterCommit: (changed) => announceFigures(pubsub, changed),
  });
}
