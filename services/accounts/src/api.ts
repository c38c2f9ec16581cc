import { Router } from 'express';
import { z } from 'zod';
import { verifyPassword } from '@shop/shared/auth/passwords';
import { KnownDevices } from '@shop/shared/auth/known-devices';
import { requireAdmin, requireAuth, type TokenService } from '@shop/shared/auth/tokens';
import { NotFoundError, UnauthorizedError, UnavailableError } from '@shop/shared/errors/errors';
import { loginLimits } from './user/login-limits.ts';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { indianPhoneInput } from '@shop/shared/http/phone-input';
import { parseInput } from '@shop/shared/http/validation';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import type { Accounts } from './accounts.ts';
import { GENDERS, userStreamId } from './user/events.ts';
import { USERS_PROJECTION } from './read-models/users/users-projection.ts';
import { findUserByEmail, findUserById, listUsers, type UserView } from './read-models/users/users-queries.ts';

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);
const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Please enter a valid email'));

// A check without its own message takes the schema's ('Password is required'): every limit says its own.
const MAX_PASSWORD = 200;
const TOO_LONG_PASSWORD = `Password must be at most ${MAX_PASSWORD} characters`;
export const RegisterBody = z.object({
  name: required('Name').max(100, 'Name must be at most 100 characters'),
  email,
  phone: indianPhoneInput('Phone'),
  password: z
    .string({ error: 'Password is required' })
    .min(6, 'Password must be at least 6 characters')
    .max(MAX_PASSWORD, TOO_LONG_PASSWORD),
});
export const LoginBody = z.object({
  email: required('Email'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD, TOO_LONG_PASSWORD),
});
// Phone, dob and gender left out keep their value; '' or null clears them.
const blankToNull = <T>(v: T | '' | null | undefined) => (v === undefined ? undefined : v ? v : null);
export const ProfileBody = z.object({
  name: required('Name').max(100, 'Name must be at most 100 characters'),
  email,
  phone: indianPhoneInput('Phone', { blankAllowed: true }).optional(),
  dob: z
    .union([z.iso.date('Date of birth must be YYYY-MM-DD'), z.literal(''), z.null()])
    .optional()
    .transform(blankToNull),
  gender: z
    .union([z.enum(GENDERS, 'Gender must be Male, Female or Other'), z.literal(''), z.null()])
    .optional()
    .transform(blankToNull),
});

/** Routes of the accounts service: /api/auth/... */
export function accountsRouter(ctx: ServiceContext, accounts: Accounts): Router {
  const r = Router();
  const tokens: TokenService = ctx.tokens;
  // Failed log-ins per account and address, per address, and per account from any address (a browser that
  // logged in to the account before is exempt from that one), shared through Redis.
  const devices = new KnownDevices(ctx.config.JWT_SECRET);
  const loginLimit = loginLimits({ devices });
  const registerLimit = rateLimit({
    name: 'register',
    windowMs: 60_000,
    max: 30,
    message: 'Too many sign-ups from this address, please try again in a minute',
  });

  const NOT_YET_READABLE = 'Account saved but not yet readable, please retry in a moment';
  const waitForUser = async (userId: string, version: number) => {
    await awaitReadable(
      ctx,
      { schema: 'accounts', consumer: USERS_PROJECTION },
      { streamId: userStreamId(userId), version },
      NOT_YET_READABLE,
    );
    const user = await findUserById(ctx.pool, userId);
    if (!user) throw new UnavailableError(NOT_YET_READABLE);
    return user;
  };
  const session = (user: UserView) => ({ user, token: tokens.sign(user) });

  r.post('/api/auth/register', registerLimit, async (req, res) => {
    const body = parseInput(RegisterBody, req.body);
    const { userId, version } = await accounts.register(body);
    res.status(201).json({ message: 'Account created', ...session(await waitForUser(userId, version)) });
  });

  r.post('/api/auth/login', loginLimit, async (req, res) => {
    const body = parseInput(LoginBody, req.body);
    const found = await findUserByEmail(ctx.pool, body.email);
    // Same message and similar work whether the e-mail or the password is wrong.
    const ok = await verifyPassword(
      body.password,
      found?.passwordHash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(86),
    );
    if (!found || !ok) throw new UnauthorizedError('Invalid email or password');
    const { passwordHash: _hash, ...user } = found;
    devices.remember(req, res, body.email);
    res.json({ message: 'Login successful', ...session(user) });
  });

  r.get('/api/auth/me', requireAuth, async (req, res) => {
    const user = await findUserById(ctx.pool, req.user!.id);
    if (!user) throw new NotFoundError('User not found');
    res.json(user);
  });

  r.put('/api/auth/me', requireAuth, async (req, res) => {
    const body = parseInput(ProfileBody, req.body);
    const version = await accounts.updateProfile(req.user!.id, body);
    const user = await waitForUser(req.user!.id, version);
    res.json({ ...user, user, token: tokens.sign(user) });
  });

  r.get('/api/auth/admin/users', requireAdmin, async (_req, res) => {
    res.json(await listUsers(ctx.pool));
  });

  return r;
}
