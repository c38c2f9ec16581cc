import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { UserEvent } from '../../user/events.ts';

/**
 * The replay's in-memory fold of accounts.users (users-projection.ts). The shadow keeps the table's unique
 * index on lower(email), so a log that handle() could not replay (two users on one address) fails here too.
 */
export function usersReplayFold(): ReplayFold {
  const users = new KeyedRows('accounts.users', [
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
  ]);
  return defineReplayFold<UserEvent>({
    on: {
      UserRegistered(d) {
        users.insert(d.userId, {
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
      },
      UserProfileUpdated(d) {
        users.update(d.userId, {
          name: d.name,
          email: d.email,
          phone: d.phone,
          dob: d.dob,
          gender: d.gender,
          updated_at: d.updatedAt,
        });
      },
      UserPromotedToAdmin(d) {
        users.update(d.userId, { is_admin: true, updated_at: d.promotedAt });
      },
    },
    tables: [users],
  });
}
