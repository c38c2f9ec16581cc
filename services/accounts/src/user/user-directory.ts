import type pg from 'pg';
import type { UserDirectory } from '@shop/shared/auth/user-directory';
import { findUserWithSecrets } from '../read-models/users/users-queries.ts';

/** The accounts service's users as its projection has them now: what every process checks tokens against. */
export function accountsUserDirectory(pool: pg.Pool): UserDirectory {
  return {
    async find(userId) {
      const found = await findUserWithSecrets(pool, userId);
      return found ? { isAdmin: found.user.isAdmin, sessionVersion: found.secrets.sessionVersion } : null;
    },
  };
}
