import { z } from 'zod';
import type { UserDirectory } from '@shop/shared/auth/user-directory';
import { routeOf } from '@shop/shared/http/route-table';

export const USER_CHECK_PATH = '/internal/accounts/user';

export const UserCheckBody = z.object({ userId: z.string().min(1).max(100) });

const route = routeOf<{ users: UserDirectory }>('accounts');

/**
 * The user check over HTTP, for the other services running as their own processes: `{user: {isAdmin,
 * sessionVersion}}` while the user exists, `{user: null}` once they are gone.
 */
export const USER_DIRECTORY_ROUTES = [
  route({
    method: 'post',
    path: USER_CHECK_PATH,
    auth: 'service',
    summary: "Whether a token's user still exists, and is an admin now (service token)",
    body: UserCheckBody,
    responses: {
      200: '{user: {isAdmin, sessionVersion} | null}',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
    },
    handler:
      ({ users }) =>
      async (_req, res, { body: { userId } }) => {
        res.json({ user: await users.find(userId) });
      },
  }),
];
