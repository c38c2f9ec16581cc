import type pg from 'pg';
import type { TestimonialStatus } from '../../testimonial/events.ts';

/** A review as shoppers see it: the author's current name only. */
export interface TestimonialView {
  id: string;
  rating: number;
  text: string;
  status: TestimonialStatus;
  createdAt: string;
  User: { name: string | null };
}
/** A review as admins see it: with the author's id and e-mail too. */
export interface AdminTestimonialView extends TestimonialView {
  userId: string;
  updatedAt: string;
  User: { name: string | null; email: string | null };
}

interface Row {
  id: string;
  user_id: string;
  rating: number;
  text: string;
  status: TestimonialStatus;
  created_at: Date;
  updated_at: Date;
  name: string | null;
  email: string | null;
}

// The author's name and e-mail come from the users read model at query time, so they are always current.
const SELECT = `SELECT t.id, t.user_id, t.rating, t.text, t.status, t.created_at, t.updated_at, u.name, u.email
                  FROM accounts.testimonials t LEFT JOIN accounts.users u ON u.id = t.user_id`;
const NEWEST_FIRST = `ORDER BY t.created_at DESC, t.submitted_position DESC`;

const publicView = (r: Row): TestimonialView => ({
  id: r.id,
  rating: r.rating,
  text: r.text,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  User: { name: r.name },
});
const adminView = (r: Row): AdminTestimonialView => ({
  ...publicView(r),
  userId: r.user_id,
  updatedAt: r.updated_at.toISOString(),
  User: { name: r.name, email: r.email },
});

/** Approved reviews, newest first: what shoppers see. */
export async function listApprovedTestimonials(db: pg.Pool): Promise<TestimonialView[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE t.status = 'approved' ${NEWEST_FIRST}`);
  return rows.map(publicView);
}

/** Every review in every status, newest first: the admin's moderation list. */
export async function listAllTestimonials(db: pg.Pool): Promise<AdminTestimonialView[]> {
  const { rows } = await db.query<Row>(`${SELECT} ${NEWEST_FIRST}`);
  return rows.map(adminView);
}

/** How many of `userId`'s reviews wait for moderation. */
export async function countPendingTestimonials(db: pg.Pool, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM accounts.testimonials WHERE user_id = $1 AND status = 'pending'`,
    [userId],
  );
  return rows[0]!.n;
}

export async function findTestimonial(db: pg.Pool, id: string): Promise<AdminTestimonialView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE t.id = $1`, [id]);
  return rows[0] ? adminView(rows[0]) : null;
}

/** The shopper's view of an admin row (the author's own submission answer). */
export const asPublicTestimonial = (v: AdminTestimonialView): TestimonialView => ({
  id: v.id,
  rating: v.rating,
  text: v.text,
  status: v.status,
  createdAt: v.createdAt,
  User: { name: v.User.name },
});
