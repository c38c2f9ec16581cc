import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
import { timingSafeEqual } from 'node:crypto';
import { indiaDate } from '@shop/shared/time/india-date';
import type { EmailEvent, Gender, UserEvent, UserProfileUpdated, UserRegistered } from './events.ts';

// ---- user-<id> ----
export type UserState =
  | { status: 'none' }
  | {
      status: 'registered';
      userId: string;
      name: string;
      email: string;
      phone: string;
      dob: string | null;
      gender: Gender | null;
      isAdmin: boolean;
      /** The reset link asked for last and not used yet (its secret's hash), or null. */
      passwordReset: { tokenHash: string; expiresAt: string } | null;
      /** Sessions issued in an earlier generation have ended (one PasswordReset each). */
      sessionVersion: number;
    };

/** What UserRegistered records, registered at `now`. */
export type RegisterUser = {
  type: 'RegisterUser';
  data: Omit<UserRegistered['data'], 'registeredAt'> & { now: Date };
};
/** What UserProfileUpdated records of the user's own fields, updated at `now`. */
export type UpdateProfile = {
  type: 'UpdateProfile';
  data: Omit<UserProfileUpdated['data'], 'userId' | 'updatedAt'> & { now: Date };
};
export type PromoteToAdmin = { type: 'PromoteToAdmin'; data: { now: Date } };
/** Gives the user a reset link whose secret hashes to `tokenHash`, working until `expiresAt`. */
export type RequestPasswordReset = {
  type: 'RequestPasswordReset';
  data: { tokenHash: string; expiresAt: Date; now: Date };
};
/** Sets the password anew with the secret of the user's live reset link (its hash, `tokenHash`). */
export type ResetPassword = { type: 'ResetPassword'; data: { tokenHash: string; passwordHash: string; now: Date } };
export type UserCommand = RegisterUser | UpdateProfile | PromoteToAdmin | RequestPasswordReset | ResetPassword;

/** What a used, expired, replaced or made-up reset link gets. */
export const RESET_LINK_INVALID_MESSAGE =
  'This password reset link is invalid or has expired. Please ask for a new one.';

export const FUTURE_DOB_MESSAGE = 'Date of birth (dob) cannot be in the future';

export const initialUserState = (): UserState => ({ status: 'none' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        status: 'registered',
        userId: d.userId,
        name: d.name,
        email: d.email,
        phone: d.phone,
        dob: null,
        gender: null,
        isAdmin: d.isAdmin,
        passwordReset: null,
        sessionVersion: 0,
      };
    }
    case 'UserProfileUpdated':
      return state.status === 'registered' ? { ...state, ...event.data, userId: state.userId } : state;
    case 'UserPromotedToAdmin':
      return state.status === 'registered' ? { ...state, isAdmin: true } : state;
    case 'PasswordResetRequested':
      return state.status === 'registered'
        ? { ...state, passwordReset: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt } }
        : state;
    case 'PasswordReset':
      return state.status === 'registered'
        ? { ...state, passwordReset: null, sessionVersion: state.sessionVersion + 1 }
        : state;
  }
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status !== 'none') throw new ConflictError('User already exists');
      const { now, ...d } = command.data;
      return [{ type: 'UserRegistered', data: { ...d, registeredAt: now.toISOString() } }];
    }
    case 'UpdateProfile': {
      if (state.status !== 'registered') throw new NotFoundError('User not found');
      const { now, ...d } = command.data;
      // Today in India is a valid birthday (a baby's profile); tomorrow is not. A date kept from before this
      // rule is not re-checked, so it never blocks other edits.
      if (d.dob !== null && d.dob !== state.dob && d.dob > indiaDate(now))
        throw new ValidationError(FUTURE_DOB_MESSAGE, [{ path: 'dob', message: FUTURE_DOB_MESSAGE }]);
      return [{ type: 'UserProfileUpdated', data: { userId: state.userId, ...d, updatedAt: now.toISOString() } }];
    }
    case 'PromoteToAdmin': {
      if (state.status !== 'registered') throw new NotFoundError('User not found');
      if (state.isAdmin) return [];
      return [
        { type: 'UserPromotedToAdmin', data: { userId: state.userId, promotedAt: command.data.now.toISOString() } },
      ];
    }
    case 'RequestPasswordReset': {
      if (state.status !== 'registered') throw new NotFoundError('User not found');
      const { tokenHash, expiresAt, now } = command.data;
      return [
        {
          type: 'PasswordResetRequested',
          data: { userId: state.userId, tokenHash, requestedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
        },
      ];
    }
    case 'ResetPassword': {
      const { tokenHash, passwordHash, now } = command.data;
      const live = state.status === 'registered' ? state.passwordReset : null;
      if (!live || !sameHash(live.tokenHash, tokenHash) || Date.parse(live.expiresAt) <= now.getTime())
        throw new ValidationError(RESET_LINK_INVALID_MESSAGE, [{ path: 'token', message: RESET_LINK_INVALID_MESSAGE }]);
      return [
        {
          type: 'PasswordReset',
          data: { userId: (state as { userId: string }).userId, passwordHash, resetAt: now.toISOString() },
        },
      ];
    }
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}

/** Two hex hashes compared in constant time (a reset secret is never compared byte by byte in the open). */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

// ---- email-<address>: one owner per address ----
export type EmailState = { owner: string | null };
export const initialEmailState = (): EmailState => ({ owner: null });

export function evolveEmail(state: EmailState, event: EmailEvent): EmailState {
  switch (event.type) {
    case 'EmailClaimed':
      return { owner: event.data.userId };
    case 'EmailReleased':
      return state.owner === event.data.userId ? { owner: null } : state;
  }
}

export function decideClaimEmail(cmd: { email: string; userId: string }, state: EmailState): EmailEvent[] {
  if (state.owner === cmd.userId) return [];
  if (state.owner !== null) throw new ConflictError('Email already registered');
  return [{ type: 'EmailClaimed', data: cmd }];
}

export function decideReleaseEmail(cmd: { email: string; userId: string }, state: EmailState): EmailEvent[] {
  return state.owner === cmd.userId ? [{ type: 'EmailReleased', data: cmd }] : [];
}
