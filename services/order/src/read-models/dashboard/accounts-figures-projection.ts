import { z } from 'zod';
import { type UncheckedEvents } from '@shop/shared/bus/projection';
import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
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

/** The accounts events this read model handles, with their data as the schemas above check it. */
export type AccountsFact =
  | { type: 'UserRegistered'; data: z.infer<typeof UserRegistered> }
  | { type: 'TestimonialSubmitted'; data: z.infer<typeof TestimonialSubmitted> }
  | { type: 'TestimonialModerated'; data: z.infer<typeof TestimonialModerated> }
  | { type: 'TestimonialDeleted'; data: z.infer<typeof TestimonialDeleted> };

const tables = {
  users: table('orders.dashboard_users', { key: ['user_id'], columns: ['user_id'] }),
  testimonials: table('orders.dashboard_testimonials', {
    key: ['testimonial_id'],
    columns: ['testimonial_id', 'status'],
  }),
};

/** A dashboard count moved when the event changed a row: the event's after-commit effect. */
const figureIf = (changed: boolean): FigureChanged | undefined => (changed ? FIGURE_CHANGED : undefined);

/**
 * orders.dashboard_users and orders.dashboard_testimonials: the user count and the pending testimonials of
 * the admin dashboard, from the accounts events. A testimonial's events share its stream, so they arrive
 * in order; users are independent of each other.
 */
export const accountsFiguresReadModel = defineReadModel<
  UncheckedEvents<AccountsFact['type']>,
  typeof tables,
  FigureChanged
>({
  name: ACCOUNTS_FIGURES_PROJECTION,
  schema: 'orders',
  sources: ['accounts'],
  tables,
  evolve: {
    UserRegistered(data, { users }) {
      const { userId } = UserRegistered.parse(data);
      return figureIf(users.insert({ user_id: userId }));
    },
    TestimonialSubmitted(data, { testimonials }) {
      const { testimonialId } = TestimonialSubmitted.parse(data);
      return figureIf(testimonials.insert({ testimonial_id: testimonialId, status: 'pending' }));
    },
    TestimonialModerated(data, { testimonials }) {
      const d = TestimonialModerated.parse(data);
      if (testimonials.get(d.testimonialId)?.status === d.to) return undefined;
      testimonials.put({ testimonial_id: d.testimonialId, status: d.to });
      return FIGURE_CHANGED;
    },
    TestimonialDeleted(data, { testimonials }) {
      const { testimonialId } = TestimonialDeleted.parse(data);
      return figureIf(testimonials.delete(testimonialId));
    },
  },
});

/** The dashboard's accounts figures, live: each commit that moved a figure is announced. */
export function accountsFiguresProjection(pubsub: PubSub): EventConsumer<FigureChanged> {
  return readModelConsumer(accountsFiguresReadModel, (changed) => announceFigures(pubsub, changed));
}
