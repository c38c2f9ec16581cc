import { defineReadModel, readModelConsumer, type RowsOf } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { UserEvent } from '../../user/events.ts';

export const USERS_PROJECTION = 'accounts.users';

const tables = {
  users: table('accounts.users', {
    key: ['id'],
    columns: [
      'id',
      'name',
      'email',
      'phone',
      'dob',
      'gender',
      'is_admin',
      'password_hash',
      'registered_at',
      'updated_at',
      'session_version',
    ],
    lookup: { column: 'email', lower: true },
  }),
};

/**
 * The e-mail claims (write side) free an address before anyone registers with it or moves to it, but with
 * Kafka the events of different users' streams can reach this projection out of log order: the new
 * holder's UserRegistered (or UserProfileUpdated) before the old holder's UserProfileUpdated moving away. A
 * row still holding the address is then stale: its address is set aside ('moved:<id>', which no login
 * matches) until its own update arrives, instead of failing the unique index (users_email) until the
 * event is parked. Redelivered events never reach the read model (consumer_streams dedupes per stream).
 */
function setAsideStaleEmail({ users }: RowsOf<typeof tables>, email: string, userId: string): void {
  for (const row of users.rowsWhere(email))
    if (row.id !== userId) users.update(row.id, { email: `moved:${String(row.id)}` });
}

/** accounts.users: one row per user, for login, /auth/me and the admin users list. */
export const usersReadModel = defineReadModel<UserEvent, typeof tables>({
  name: USERS_PROJECTION,
  schema: 'accounts',
  sources: ['accounts'],
  tables,
  evolve: {
    UserRegistered(d, rows) {
      setAsideStaleEmail(rows, d.email, d.userId);
      rows.users.insert({
        id: d.userId,
        name: d.name,
        email: d.email,
        phone: d.phone,
        dob: null,
        gender: null,
        is_admin: d.isAdmin,
        password_hash: d.passwordHash,
        registered_at: d.registeredAt,
        updated_at: d.registeredAt,
        session_version: 0,
      });
    },
    UserProfileUpdated(d, rows) {
      setAsideStaleEmail(rows, d.email, d.userId);
      rows.users.update(d.userId, {
        name: d.name,
        email: d.email,
        phone: d.phone,
        dob: d.dob,
        gender: d.gender,
        updated_at: d.updatedAt,
      });
    },
    UserPromotedToAdmin(d, { users }) {
      users.update(d.userId, { is_admin: true, updated_at: d.promotedAt });
    },
    // The new password logs in; the sessions issued before end (their tokens carry the old generation).
    PasswordReset(d, { users }) {
      users.update(d.userId, { password_hash: d.passwordHash, updated_at: d.resetAt });
      users.add(d.userId, 'session_version', 1);
    },
  },
});

export const usersProjection = readModelConsumer(usersReadModel);
