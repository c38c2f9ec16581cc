import { Router } from 'express';
import { z } from 'zod';
import { requireService } from '@shop/shared/auth/tokens';
import type { UserDirectory } from '@shop/shared/auth/user-directory';
import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { parseInput } from '@shop/shared/http/validation';

export const USER_CHECK_PATH = '/internal/accounts/user';

export const UserCheckBody = z.object({ userId: z.string().min(1).max(100) });

/**
 * The user check over HTTP, for the other services running as their own processes: `{user: {isAdmin}}`
 * while the user exists, `{user: null}` once they are gone.
 */
export function userDirectoryRouter(users: UserDirectory): Router {
  const r = Router();
  r.post(USER_CHECK_PATH, requireService, async (req, res) => {
    const { userId } = parseInput(UserCheckBody, req.body ?? {});
    res.json({ user: await users.find(userId) });
  });
  return r;
}

export const USER_DIRECTORY_ROUTES: RouteSpec[] = [
  route({
    method: 'post',
    path: USER_CHECK_PATH,
    auth: 'service',
    service: 'accounts',
    summary: "Whether a token's user still exists, and is an admin now (service token)",
    body: UserCheckBody,
    responses: {
      200: '{user: {isAdmin} | null}',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
    },
  }),
];
