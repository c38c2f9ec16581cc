import type { ReplayFold } from '@shop/shared/replay/fold';

/**
 * The replay's in-memory fold of orders.dashboard_accounts (accounts-figures-projection.ts):
 * orders.dashboard_users and orders.dashboard_testimonials (announcements are pushes, not rows).
 */
export function accountsFiguresReplayFold(): ReplayFold {
  const users = new Set<string>();
  const testimonials = new Map<string, string>();
  return {
    apply(event) {
      const d = event.data as { userId: string; testimonialId: string; to: string };
      switch (event.type) {
        case 'UserRegistered':
          users.add(d.userId);
          return;
        case 'TestimonialSubmitted':
          if (!testimonials.has(d.testimonialId)) testimonials.set(d.testimonialId, 'pending');
          return;
        case 'TestimonialModerated':
          testimonials.set(d.testimonialId, d.to);
          return;
        case 'TestimonialDeleted':
          testimonials.delete(d.testimonialId);
          return;
      }
    },
    tables: () => [
      { table: 'orders.dashboard_users', columns: ['user_id'], rows: [...users].map((u) => [u]) },
      { table: 'orders.dashboard_testimonials', columns: ['testimonial_id', 'status'], rows: [...testimonials] },
    ],
  };
}
