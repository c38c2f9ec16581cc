import type { ReplayFold } from '@shop/shared/replay/fold';
import type { UserEvent } from '../../user/events.ts';

/**
 * The replay's in-memory fold of accounts.users (users-projection.ts). The shadow keeps the table's unique
 * index on lower(email), so a log that handle() could not replay (two users on one address) fails here too.
 */

const COLUMNS = [
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
] as const;
type Row = Record<(typeof COLUMNS)[number], unknown>;

export function usersReplayFold(): ReplayFold {
  const users = new Map<string, Row>();
  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as UserEvent;
      switch (e.type) {
        case 'UserRegistered': {
          const d = e.data;
          if (!users.has(d.userId))
            users.set(d.userId, {
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
            });
          return;
        }
        case 'UserProfileUpdated': {
          const d = e.data;
          const u = users.get(d.userId);
          if (u)
            Object.assign(u, {
              name: d.name,
              email: d.email,
              phone: d.phone,
              dob: d.dob,
              gender: d.gender,
              updated_at: d.updatedAt,
            });
          return;
        }
        case 'UserPromotedToAdmin': {
          const u = users.get(e.data.userId);
          if (u) Object.assign(u, { is_admin: true, updated_at: e.data.promotedAt });
          return;
        }
      }
    },
    tables: () => [
      { table: 'accounts.users', columns: COLUMNS, rows: [...users.values()].map((u) => COLUMNS.map((c) => u[c])) },
    ],
  };
}
