import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { AccountsFact } from './accounts-figures-projection.ts';

/**
 * The replay's in-memory fold of orders.dashboard_accounts (accounts-figures-projection.ts):
 * orders.dashboard_users and orders.dashboard_testimonials (announcements are pushes, not rows).
 */
export function accountsFiguresReplayFold(): ReplayFold {
  const users = new KeyedRows('orders.dashboard_users', ['user_id']);
  const testimonials = new KeyedRows('orders.dashboard_testimonials', ['testimonial_id', 'status']);
  return defineReplayFold<AccountsFact>({
    on: {
      UserRegistered(d) {
        users.insert(d.userId, [d.userId]);
      },
      TestimonialSubmitted(d) {
        testimonials.insert(d.testimonialId, [d.testimonialId, 'pending']);
      },
      TestimonialModerated(d) {
        testimonials.put(d.testimonialId, [d.testimonialId, d.to]);
      },
      TestimonialDeleted(d) {
        testimonials.delete(d.testimonialId);
      },
    },
    tables: [users, testimonials],
  });
}
