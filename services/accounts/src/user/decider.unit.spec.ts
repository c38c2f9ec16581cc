import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import type { EmailEvent, UserEvent } from './events.ts';
import {
  decideClaimEmail,
  decideUser,
  evolveEmail,
  evolveUser,
  initialEmailState,
  initialUserState,
} from './decider.ts';

const now = new Date('2026-11-22T10:00:00Z');
const given = deciderSpec({ decide: decideUser, evolve: evolveUser, initialState: initialUserState });
const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    name: 'Asha',
    email: 'asha@example.in',
    phone: '+919800000000',
    passwordHash: 'h',
    isAdmin: false,
    registeredAt: now.toISOString(),
  },
};

describe('user decider', () => {
  it('registers a new user once', () => {
    const cmd = {
      type: 'RegisterUser' as const,
      data: {
        userId: 'u1',
        name: 'Asha',
        email: 'asha@example.in',
        phone: '+91',
        passwordHash: 'h',
        isAdmin: false,
        now,
      },
    };
    given([])
      .when(cmd)
      .thenMatches([{ type: 'UserRegistered', data: { userId: 'u1', registeredAt: now.toISOString() } }]);
    given([registered]).when(cmd).then('User already exists');
  });
  it('updates a profile only for a registered user', () => {
    const cmd = {
      type: 'UpdateProfile' as const,
      data: { name: 'Asha R', email: 'a@b.in', phone: '1', dob: '1990-01-02', gender: 'Female' as const, now },
    };
    given([]).when(cmd).then('User not found');
    const [e] = given([registered]).when(cmd).events();
    expect(evolveUser(given([registered]).state(), e!)).toMatchObject({
      name: 'Asha R',
      dob: '1990-01-02',
      gender: 'Female',
      isAdmin: false,
    });
  });
  it('refuses a date of birth after today in India, naming dob; today in India is allowed', () => {
    // 2026-11-22T20:00Z is already 23 November (01:30) in India.
    const lateEvening = new Date('2026-11-22T20:00:00Z');
    const update = (dob: string, at: Date) => ({
      type: 'UpdateProfile' as const,
      data: { name: 'Asha', email: 'asha@example.in', phone: '1', dob, gender: null, now: at },
    });
    given([registered])
      .when(update('2026-11-23', lateEvening))
      .thenMatches([{ type: 'UserProfileUpdated', data: { dob: '2026-11-23' } }]);
    given([registered]).when(update('2026-11-24', lateEvening)).then('Date of birth (dob) cannot be in the future');
    // At 10:00 UTC it is still 22 November in India: the 23rd is tomorrow there.
    given([registered])
      .when(update('2026-11-23', now))
      .then(/dob.*future/);
    expect(given([registered]).when(update('2026-11-22', now)).events()).toHaveLength(1);
  });
  it('does not re-check a future date of birth kept from before the rule when other fields change', () => {
    const legacy: UserEvent = {
      type: 'UserProfileUpdated',
      data: {
        userId: 'u1',
        name: 'Asha',
        email: 'asha@example.in',
        phone: '1',
        dob: '2030-01-01',
        gender: null,
        updatedAt: now.toISOString(),
      },
    };
    const rename = {
      type: 'UpdateProfile' as const,
      data: { name: 'Asha R', email: 'asha@example.in', phone: '1', dob: '2030-01-01', gender: null, now },
    };
    given([registered, legacy])
      .when(rename)
      .thenMatches([{ data: { name: 'Asha R' } }]);
  });
  it('promotes to admin once', () => {
    const cmd = { type: 'PromoteToAdmin' as const, data: { now } };
    const events = given([registered]).when(cmd).events();
    expect(events).toHaveLength(1);
    given([registered, ...events])
      .when(cmd)
      .then([]);
  });
});

describe('email uniqueness', () => {
  const claimed = (events: EmailEvent[]) => events.reduce(evolveEmail, initialEmailState());
  it('lets one user claim an address and refuses another', () => {
    const first = decideClaimEmail({ email: 'a@b.in', userId: 'u1' }, claimed([]));
    expect(first).toHaveLength(1);
    expect(() => decideClaimEmail({ email: 'a@b.in', userId: 'u2' }, claimed(first))).toThrow(
      'Email already registered',
    );
    expect(decideClaimEmail({ email: 'a@b.in', userId: 'u1' }, claimed(first))).toEqual([]);
  });
  it('frees an address once released', () => {
    const events: EmailEvent[] = [
      { type: 'EmailClaimed', data: { email: 'a@b.in', userId: 'u1' } },
      { type: 'EmailReleased', data: { email: 'a@b.in', userId: 'u1' } },
    ];
    expect(decideClaimEmail({ email: 'a@b.in', userId: 'u2' }, claimed(events))).toHaveLength(1);
  });
});
