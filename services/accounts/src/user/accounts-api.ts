import { z } from 'zod';
import { verifyPassword } from '@shop/shared/auth/passwords';
import type { BoundUserDirectory } from '@shop/shared/auth/user-directory';
import type { KnownDevices } from '@shop/shared/auth/known-devices';
import { NotFoundError, UnauthorizedError, UnavailableError } from '@shop/shared/errors/errors';
import { loginLimits } from './login-limits.ts';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { EMAIL_MESSAGE } from '@shop/shared/contracts/email-address';
import { indianPhoneInput } from '@shop/shared/http/phone-input';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import type { Accounts } from './accounts.ts';
import { GENDERS, userStreamId } from './events.ts';
import { USERS_PROJECTION } from '../read-models/users/users-projection.ts';
import { findUserByEmail, findUserById, listUsers, type UserView } from '../read-models/users/users-queries.ts';

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);
const email = z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').pipe(z.email(EMAIL_MESSAGE)); // the rule of contracts/email-address, after 'Email is required'

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
/** The one answer to a reset request, whether or not the e-mail has an account (nothing to learn from it). */
export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that e-mail, we have sent it a link to reset the password. The link works once, for 30 minutes.';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please log in with your new password.';
export const LoginBody = z.object({
  email: required('Email'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(MAX_PASSWORD, TOO_LONG_PASSWORD),
});
const newPassword = z
  .string({ error: 'Password is required' })
  .min(6, 'Password must be at least 6 characters')
  .max(MAX_PASSWORD, TOO_LONG_PASSWORD);
export const ForgotPasswordBody = z.object({ email });
export const ResetPasswordBody = z.object({
  token: z
    .string({ error: 'The reset link is missing its token' })
    .trim()
    .min(1, 'The reset link is missing its token')
    .max(200),
  password: newPassword,
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

/** What the account routes use: `devices` tells browsers that logged in to an account before. */
export type AccountsPorts = Pick<ServiceContext, 'pool' | 'tokens' | 'waitForProjection'> & {
  accounts: Accounts;
  devices: KnownDevices;
  /** This process's token check: a reset drops what it remembers of the user, so old sessions end at once. */
  directory: Pick<BoundUserDirectory, 'forget'>;
};

const route = routeOf<AccountsPorts>('accounts');

const NOT_YET_READABLE = 'Account saved but not yet readable, please retry in a moment';
const waitForUser = async (ctx: AccountsPorts, userId: string, version: number) => {
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
/** The user and a token of their current session generation (`sessionVersion`: 0 until a password reset). */
const session = (ctx: AccountsPorts, user: UserView, sessionVersion: number) => ({
  user,
  token: ctx.tokens.sign({ ...user, sessionVersion }),
});

const registerLimit = () => [
  rateLimit({
    name: 'register',
    windowMs: 60_000,
    max: 30,
    message: 'Too many sign-ups from this address, please try again in a minute',
  }),
];
// Failed log-ins per account and address, per address, and per account from any address (a browser that
// logged in to the account before is exempt from that one), shared through Redis.
const loginLimit = ({ devices }: AccountsPorts) => [loginLimits({ devices })];
// Reset requests per client address, and per e-mail from any address (no one's inbox is flooded); the same
// limits whether or not the e-mail has an account. Reset attempts per address (a token cannot be guessed, but
// trying costs a hash each).
const forgotPasswordLimit = () => [
  rateLimit({
    name: 'forgot-password',
    windowMs: 15 * 60_000,
    max: 10,
    message: 'Too many password reset requests, please try again in 15 minutes',
  }),
  rateLimit({
    name: 'forgot-password-email',
    windowMs: 60 * 60_000,
    max: 5,
    key: (req) =>
      `email:${String((req.body as { email?: unknown } | undefined)?.email ?? '')
        .trim()
        .toLowerCase()}`,
    message: 'Too many password reset requests, please try again in an hour',
  }),
];
const resetPasswordLimit = () => [
  rateLimit({
    name: 'reset-password',
    windowMs: 15 * 60_000,
    max: 20,
    message: 'Too many password reset attempts, please try again in 15 minutes',
  }),
];

/** Routes of the accounts service: /api/auth/... */
export const ACCOUNTS_API_ROUTES = [
  route({
    method: 'post',
    path: '/api/auth/register',
    auth: 'public',
    summary: 'Create an account; answers the user and a token',
    body: RegisterBody,
    middleware: registerLimit,
    responses: {
      201: 'Account created: {message, user, token}',
      400: 'Bad input (names the field)',
      409: 'The e-mail is already registered',
      429: 'Too many sign-ups from this address',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (_req, res, { body }) => {
        const { userId, version } = await ctx.accounts.register(body);
        res
          .status(201)
          .json({ message: 'Account created', ...session(ctx, await waitForUser(ctx, userId, version), 0) });
      },
  }),
  route({
    method: 'post',
    path: '/api/auth/login',
    auth: 'public',
    summary: 'Log in with e-mail and password; answers the user and a token',
    body: LoginBody,
    middleware: loginLimit,
    responses: {
      200: '{message, user, token}',
      400: 'Bad input',
      401: 'Invalid email or password',
      429: 'Too many login attempts',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const found = await findUserByEmail(ctx.pool, body.email);
        // Same message and similar work whether the e-mail or the password is wrong.
        const ok = await verifyPassword(
          body.password,
          found?.secrets.passwordHash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(86),
        );
        if (!found || !ok) throw new UnauthorizedError('Invalid email or password');
        ctx.devices.remember(req, res, body.email);
        res.json({ message: 'Login successful', ...session(ctx, found.user, found.secrets.sessionVersion) });
      },
  }),
  route({
    method: 'post',
    path: '/api/auth/forgot-password',
    auth: 'public',
    summary: 'Ask for a password-reset link by e-mail; the same answer whether or not the e-mail has an account',
    body: ForgotPasswordBody,
    middleware: forgotPasswordLimit,
    responses: {
      200: '{message}: the same whether or not an account exists (a link is e-mailed when one does)',
      400: 'Bad input (names the field)',
      429: 'Too many reset requests',
    },
    handler:
      (ctx) =>
      async (_req, res, { body }) => {
        await ctx.accounts.requestPasswordReset(body.email);
        res.json({ message: RESET_REQUESTED_MESSAGE });
      },
  }),
  route({
    method: 'post',
    path: '/api/auth/reset-password',
    auth: 'public',
    summary: "Set a new password with a reset link's token (once, within 30 minutes); ends the user's sessions",
    body: ResetPasswordBody,
    middleware: resetPasswordLimit,
    responses: {
      200: '{message}: the password is reset; tokens issued before no longer work',
      400: 'Bad input, or the link is invalid, used or expired',
      429: 'Too many reset attempts',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (_req, res, { body }) => {
        const { userId, version } = await ctx.accounts.resetPassword(body.token, body.password);
        ctx.directory.forget(userId);
        // Answered once the new password logs in (the login reads the users projection).
        await waitForUser(ctx, userId, version);
        res.json({ message: PASSWORD_RESET_MESSAGE });
      },
  }),
  route({
    method: 'get',
    path: '/api/auth/me',
    auth: 'user',
    summary: 'The signed-in user',
    responses: {
      200: 'The user {id, name, email, phone, dob, gender, isAdmin}',
      401: 'Not signed in',
      404: 'User not found',
    },
    handler: (ctx) => async (req, res) => {
      const user = await findUserById(ctx.pool, req.user!.id);
      if (!user) throw new NotFoundError('User not found');
      res.json(user);
    },
  }),
  route({
    method: 'put',
    path: '/api/auth/me',
    auth: 'user',
    summary: 'Change the profile (name, email, phone, dob, gender); answers the user and a fresh token',
    body: ProfileBody,
    responses: {
      200: 'The user, also under `user`, and a fresh `token`',
      400: 'Bad input (names the field)',
      401: 'Not signed in',
      409: 'The e-mail belongs to another account',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const version = await ctx.accounts.updateProfile(req.user!.id, body);
        const user = await waitForUser(ctx, req.user!.id, version);
        // The same session, renewed: its generation is the one the request's token was accepted with.
        res.json({ ...user, user, token: ctx.tokens.sign({ ...user, sessionVersion: req.user!.sessionVersion }) });
      },
  }),
  route({
    method: 'get',
    path: '/api/auth/admin/users',
    auth: 'admin',
    summary: 'Every user (admin)',
    responses: { 200: 'List of users', 401: 'Not signed in', 403: 'Not an admin' },
    handler: (ctx) => async (_req, res) => {
      res.json(await listUsers(ctx.pool));
    },
  }),
];
