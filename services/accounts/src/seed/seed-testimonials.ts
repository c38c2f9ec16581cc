import { randomBytes } from 'node:crypto';
import { StreamVersionConflictError, type PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Accounts } from '../user/accounts.ts';
import type { Testimonials } from '../testimonial/testimonials.ts';
import { testimonialStreamId } from '../testimonial/events.ts';

const SEED_STREAM = 'accounts-demo-testimonials-seed';
const ACTOR = 'seed';

/**
 * The demo reviews: each by a demo shopper account of its own (a random password nobody knows, so the account
 * cannot be logged in to), approved so the homepage shows it.
 */
export const DEMO_TESTIMONIALS = [
  {
    name: 'Priya Sharma',
    email: 'priya.sharma@demo.kapda.in',
    phone: '+91 98450 11001',
    rating: 5,
    text: 'The Kanjivaram saree was even richer in person, and it reached Chennai in three days.',
  },
  {
    name: 'Arjun Mehta',
    email: 'arjun.mehta@demo.kapda.in',
    phone: '+91 98450 11002',
    rating: 5,
    text: 'Linen shirts that actually survive a Mumbai summer. The fit chart was spot on.',
  },
  {
    name: 'Kavya Nair',
    email: 'kavya.nair@demo.kapda.in',
    phone: '+91 98450 11003',
    rating: 4,
    text: 'Bought the pavadai for my daughter by age and it fit perfectly. Soft silk, lovely colours.',
  },
] as const;

/**
 * Gives a fresh shop a few approved testimonials, through the accounts' own commands (register, submit,
 * moderate), so a replay rebuilds them like any shopper's. Once per shop: the marker event is written first, so
 * of several processes starting together one seeds. Returns the testimonial streams written, to wait on.
 */
export async function seedDemoTestimonials(
  store: PostgresEventStore,
  accounts: Accounts,
  testimonials: Testimonials,
): Promise<Array<{ streamId: string; version: number }>> {
  try {
    await store.append(SEED_STREAM, 'no_stream', [
      { type: 'DemoTestimonialsSeeded', data: { testimonials: DEMO_TESTIMONIALS.length } },
    ]);
  } catch (err) {
    if (err instanceof StreamVersionConflictError) return []; // seeded before, or by another process now
    throw err;
  }
  const written: Array<{ streamId: string; version: number }> = [];
  for (const demo of DEMO_TESTIMONIALS) {
    const { userId } = await accounts.register({
      name: demo.name,
      email: demo.email,
      phone: demo.phone,
      password: randomBytes(24).toString('base64url'),
    });
    const { testimonialId } = await testimonials.submit({ userId, rating: demo.rating, text: demo.text });
    const version = await testimonials.moderate(testimonialId, 'approved', ACTOR);
    written.push({ streamId: testimonialStreamId(testimonialId), version });
  }
  return written;
}
