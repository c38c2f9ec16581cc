import { defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { UserEvent } from '../../user/events.ts';

export const USERS_PROJECTION = 'accounts.users';

/**
 * The e-mail claims (write side) free an address before anyone registers with it or moves to it, but with
 * Kafka the events of different users' streams can reach this projection out of log order: the new
 * holder's UserRegistered (or UserProfileUpdated) before the old holder's UserProfileUpdated moving away. A
 * row still holding the address is then stale: its address is set aside ('moved:<id>', which no login
 * matches) until its own update arrives, instead of failing the unique index (users_email) until the
 * event is parked. Redelivered events never reach handle() (consumer_streams dedupes per stream).
 */
const setAsideStaleEmail = (tx: Parameters<EventConsumer['handle']>[1], email: string, userId: string) =>
  tx.query(`UPDATE accounts.users SET email = 'moved:' || id WHERE lower(email) = lower($1) AND id <> $2`, [
    email,
    userId,
  ]);

/** accounts.users: one row per user, for login, /auth/me and the admin users list. */
export const usersProjection = defineProjection<UserEvent>({
  name: USERS_PROJECTION,
  schema: 'accounts',
  sources: ['accounts'],
  on: {
    async UserRegistered(d, tx) {
      await setAsideStaleEmail(tx, d.email, d.userId);
      await tx.query(
        `INSERT INTO accounts.users (id, name, email, phone, is_admin, password_hash, registered_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
        [d.userId, d.name, d.email, d.phone, d.isAdmin, d.passwordHash, d.registeredAt],
      );
    },
    async UserProfileUpdated(d, tx) {
      await setAsideStaleEmail(tx, d.email, d.userId);
      await tx.query(
        `UPDATE accounts.users SET name = $2, email = $3, phone = $4, dob = $5, gender = $6, updated_at = $7 WHERE id = $1`,
        [d.userId, d.name, d.email, d.phone, d.dob, d.gender, d.updatedAt],
      );
    },
    async UserPromotedToAdmin(d, tx) {
      await tx.query(`UPDATE accounts.users SET is_admin = true, updated_at = $2 WHERE id = $1`, [
        d.userId,
        d.promotedAt,
      ]);
    },
  },
});
