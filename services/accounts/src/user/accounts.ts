import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { hashPassword } from '@shop/shared/auth/passwords';
import { withTransaction } from '@shop/shared/db/pool';
import { decideAndAppend, retryOnConflict } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import type { OutgoingMail } from '@shop/shared/mail/outgoing-mail';
import type { EmailEvent, Gender } from './events.ts';
import { newResetToken, passwordResetMail, readResetToken, RESET_LINK_TTL_MS } from './password-reset.ts';
import { emailStreamId, normaliseEmail, userStreamId } from './events.ts';
import {
  decideClaimEmail,
  decideReleaseEmail,
  decideUser,
  evolveEmail,
  evolveUser,
  initialEmailState,
  initialUserState,
  RESET_LINK_INVALID_MESSAGE,
  type UserCommand,
} from './decider.ts';
import { ValidationError } from '@shop/shared/errors/errors';

/** Application service: runs user commands against the accounts event store. */
export class Accounts {
  constructor(
    private readonly store: PostgresEventStore,
    private readonly clock: () => Date,
    /** Where the reset mail is recorded (with the request) and sent from; absent: no resets (tests of sign-up). */
    private readonly mail?: { outgoing: OutgoingMail; publicUrl: string },
  ) {}

  /**
   * Sends a reset link to the account of `email`, if there is one (the e-mail claim says whose it is): records
   * PasswordResetRequested (the secret's hash) and the mail in one transaction, then sends it. Answers whether a
   * link was sent; the caller answers the same either way.
   */
  async requestPasswordReset(email: string): Promise<boolean> {
    if (!this.mail) throw new Error('Accounts: no mail port for password resets');
    const { outgoing, publicUrl } = this.mail;
    const claim = await this.store.aggregate<ReturnType<typeof initialEmailState>, EmailEvent>(
      emailStreamId(email),
      evolveEmail,
      initialEmailState(),
    );
    const userId = claim.state.owner;
    if (userId === null) return false;
    const { token, tokenHash } = newResetToken(userId);
    const sent = await retryOnConflict(async () => {
      const appended: RecordedEvent[] = [];
      const ok = await withTransaction(this.store.pool, async (tx) => {
        const { state, version } = await this.store.aggregate(userStreamId(userId), evolveUser, initialUserState(), tx);
        if (state.status !== 'registered') return false;
        const now = this.clock();
        const events = decideUser(
          {
            type: 'RequestPasswordReset',
            data: { tokenHash, expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS), now },
          },
          state,
        );
        appended.push(
          ...(await this.store.append(userStreamId(userId), version, events, { tx, metadata: { actor: userId } }))
            .events,
        );
        await outgoing.record(
          tx,
          passwordResetMail({ name: state.name, email: state.email, token, tokenHash, publicUrl }),
        );
        return true;
      });
      this.store.notifyAppended(appended);
      return ok;
    });
    if (sent) outgoing.kick();
    return sent;
  }

  /**
   * Sets a new password with a reset link's token: once, before it expires (else a ValidationError with
   * RESET_LINK_INVALID_MESSAGE). Answers the user and the stream version (for read-your-writes).
   */
  async resetPassword(token: string, password: string): Promise<{ userId: string; version: number }> {
    const read = readResetToken(token);
    if (!read)
      throw new ValidationError(RESET_LINK_INVALID_MESSAGE, [{ path: 'token', message: RESET_LINK_INVALID_MESSAGE }]);
    const passwordHash = await hashPassword(password);
    const version = await decideAndAppend(
      this.store,
      userStreamId(read.userId),
      { initialState: initialUserState, evolve: evolveUser, decide: decideUser },
      (): UserCommand => ({
        type: 'ResetPassword',
        data: { tokenHash: read.tokenHash, passwordHash, now: this.clock() },
      }),
      read.userId,
    );
    return { userId: read.userId, version };
  }

  /** Registers a user, claiming the e-mail address in the same transaction. Returns the stream version. */
  async register(input: {
    name: string;
    email: string;
    phone: string;
    password: string;
    isAdmin?: boolean;
  }): Promise<{ userId: string; version: number }> {
    const userId = randomUUID();
    const passwordHash = await hashPassword(input.password);
    const email = input.email.trim();
    return retryOnConflict(async () => {
      const appended: RecordedEvent[] = [];
      const version = await withTransaction(this.store.pool, async (tx) => {
        appended.push(...(await this.claimEmail(tx, email, userId)));
        const cmd: UserCommand = {
          type: 'RegisterUser',
          data: {
            userId,
            name: input.name.trim(),
            email,
            phone: input.phone.trim(),
            passwordHash,
            isAdmin: input.isAdmin ?? false,
            now: this.clock(),
          },
        };
        const r = await this.store.append(userStreamId(userId), 'no_stream', decideUser(cmd, initialUserState()), {
          tx,
          metadata: { actor: userId },
        });
        appended.push(...r.events);
        return r.nextExpectedVersion;
      });
      this.store.notifyAppended(appended);
      return { userId, version };
    });
  }

  /**
   * Updates name, e-mail, phone, date of birth and gender; moves the e-mail claim when it changes. Phone,
   * dob and gender left out (undefined) keep their current value; '' or null clears them.
   */
  async updateProfile(
    userId: string,
    input: { name: string; email: string; phone?: string; dob?: string | null; gender?: Gender | null },
  ): Promise<number> {
    return retryOnConflict(async () => {
      const appended: RecordedEvent[] = [];
      const version = await withTransaction(this.store.pool, async (tx) => {
        const { state, version } = await this.store.aggregate(userStreamId(userId), evolveUser, initialUserState(), tx);
        const email = input.email.trim();
        if (state.status === 'registered' && normaliseEmail(state.email) !== normaliseEmail(email)) {
          appended.push(...(await this.claimEmail(tx, email, userId)));
          const old = await this.store.aggregate<ReturnType<typeof initialEmailState>, EmailEvent>(
            emailStreamId(state.email),
            evolveEmail,
            initialEmailState(),
            tx,
          );
          const release = decideReleaseEmail({ email: normaliseEmail(state.email), userId }, old.state);
          if (release.length)
            appended.push(
              ...(await this.store.append(emailStreamId(state.email), old.version, release, { tx })).events,
            );
        }
        // Decided on the stream's own state, so an omitted field keeps the value it has at this version.
        const current = state.status === 'registered' ? state : undefined;
        const events = decideUser(
          {
            type: 'UpdateProfile',
            data: {
              name: input.name.trim(),
              email,
              phone: (input.phone ?? current?.phone ?? '').trim(),
              dob: input.dob !== undefined ? input.dob : (current?.dob ?? null),
              gender: input.gender !== undefined ? input.gender : (current?.gender ?? null),
              now: this.clock(),
            },
          },
          state,
        );
        const r = await this.store.append(userStreamId(userId), version, events, { tx, metadata: { actor: userId } });
        appended.push(...r.events);
        return r.nextExpectedVersion;
      });
      this.store.notifyAppended(appended);
      return version;
    });
  }

  /** Makes sure the configured admin exists and is an admin (idempotent; never resets a password). */
  async ensureAdmin(email: string, password: string): Promise<{ userId: string; version: number; created: boolean }> {
    const claim = await this.store.aggregate<ReturnType<typeof initialEmailState>, EmailEvent>(
      emailStreamId(email),
      evolveEmail,
      initialEmailState(),
    );
    if (claim.state.owner === null) {
      const r = await this.register({ name: 'Admin', email, phone: '+910000000000', password, isAdmin: true });
      return { ...r, created: true };
    }
    const userId = claim.state.owner;
    const version = await decideAndAppend(
      this.store,
      userStreamId(userId),
      { initialState: initialUserState, evolve: evolveUser, decide: decideUser },
      () => ({ type: 'PromoteToAdmin', data: { now: this.clock() } }),
      'system',
    );
    return { userId, version, created: false };
  }

  private async claimEmail(tx: pg.PoolClient, email: string, userId: string): Promise<RecordedEvent[]> {
    const streamId = emailStreamId(email);
    const { state, version } = await this.store.aggregate<ReturnType<typeof initialEmailState>, EmailEvent>(
      streamId,
      evolveEmail,
      initialEmailState(),
      tx,
    );
    const events = decideClaimEmail({ email: normaliseEmail(email), userId }, state);
    if (!events.length) return [];
    return (await this.store.append(streamId, version, events, { tx })).events;
  }
}
