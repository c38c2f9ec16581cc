import { ConflictError, NotFoundError, ValidationError } from '@shop/shared/errors/errors';
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
export type UserCommand = RegisterUser | UpdateProfile | PromoteToAdmin;

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
      };
    }
    case 'UserProfileUpdated':
      return state.status === 'registered' ? { ...state, ...event.data, userId: state.userId } : state;
    case 'UserPromotedToAdmin':
      return state.status === 'registered' ? { ...state, isAdmin: true } : state;
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
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
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
