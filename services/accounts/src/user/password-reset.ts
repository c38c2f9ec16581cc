import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { resetPasswordHref } from '@shop/shared/contracts/web-links';
import { composeMail } from '@shop/shared/mail/compose';
import type { OutgoingMailRecord } from '@shop/shared/mail/outgoing-mail';

/** How long a reset link works (once). */
export const RESET_LINK_TTL_MS = 30 * 60_000;

/**
 * A reset link's token: `<userId>.<secret>`, 32 random bytes of secret. The user id says whose stream to decide
 * on; only the secret's SHA-256 is recorded (PasswordResetRequested), so the log never holds a working link.
 */
export function newResetToken(userId: string): { token: string; tokenHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${userId}.${secret}`, tokenHash: hashResetSecret(secret) };
}

export const hashResetSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The user id and the secret's hash a token carries, or null when it is no token of ours. */
export function readResetToken(token: string): { userId: string; tokenHash: string } | null {
  const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  return m ? { userId: m[1]!, tokenHash: hashResetSecret(m[2]!) } : null;
}

/** The reset e-mail (recorded once per request: its key is the request's token hash). */
export function passwordResetMail(args: {
  name: string;
  email: string;
  token: string;
  tokenHash: string;
  publicUrl: string;
}): OutgoingMailRecord {
  const href = `${args.publicUrl}${resetPasswordHref(args.token)}`;
  return {
    key: `password-reset:${args.tokenHash}`,
    kind: 'password-reset',
    to: args.email,
    subject: 'Reset your password',
    ...composeMail({
      greeting: `Hello ${args.name},`,
      paragraphs: ['We received a request to reset the password of your account.'],
      link: { label: 'Reset your password', href },
      after: [
        `This link works once and expires in ${RESET_LINK_TTL_MS / 60_000} minutes. Resetting your password signs you out everywhere.`,
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ],
    }),
  };
}

/** Records the reset mail with the request (same transaction). */
export type RecordMail = (tx: pg.PoolClient, mail: OutgoingMailRecord) => Promise<unknown>;
