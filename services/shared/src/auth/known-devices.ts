import type { Request, Response } from 'express';
import { cookieOf, setCookie } from '../http/cookies.ts';
import { SignedIds } from './signed-ids.ts';

/** The cookie by which a browser shows it has logged in to an account before. */
export const DEVICE_COOKIE = 'kapda_device';
/** Sent only with log-ins: no other route reads it. */
const COOKIE_PATH = '/api/auth/login';
const NINETY_DAYS_SECONDS = 90 * 24 * 60 * 60;
const EXPIRY = /^\d{1,12}$/;

/** The account a log-in is for, as accounts are found by e-mail: trimmed, lower case. */
export const loginAccountOf = (email: string): string => email.trim().toLowerCase();

/**
 * Browsers that have logged in to an account: each successful log-in sets an HttpOnly cookie holding an
 * expiry signed (SignedIds) for that account's purpose, `known-device:<account>`, so every process of one
 * shop agrees and the e-mail itself is not in the cookie. Its holder is exempt from the account-wide failure lock
 * (loginLimits), so guessers spread over many addresses cannot lock the owner out of their own devices.
 * One account per browser: a log-in to another account replaces it.
 */
export class KnownDevices {
  constructor(
    private readonly jwtSecret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The cookie value for `email`'s account, valid until `expiresAtSeconds` (Unix time). */
  sign(email: string, expiresAtSeconds: number): string {
    return this.expiriesOf(email).sign(String(expiresAtSeconds));
  }

  /** Whether this request comes from a browser that logged in to `email`'s account before (and not long ago). */
  knows(req: Request, email: string): boolean {
    const value = cookieOf(req, DEVICE_COOKIE);
    const expiresAt = value ? this.expiriesOf(email).read(value) : null;
    return expiresAt !== null && Number(expiresAt) * 1000 > this.clock().getTime();
  }

  /** Sets the cookie on a successful log-in's answer (before it is sent). */
  remember(req: Request, res: Response, email: string): void {
    const expiresAt = Math.floor(this.clock().getTime() / 1000) + NINETY_DAYS_SECONDS;
    setCookie(req, res, {
      name: DEVICE_COOKIE,
      value: this.sign(email, expiresAt),
      path: COOKIE_PATH,
      maxAgeSeconds: NINETY_DAYS_SECONDS,
      sameSite: 'Strict',
    });
  }

  private expiriesOf(email: string): SignedIds {
    return new SignedIds(this.jwtSecret, `known-device:${loginAccountOf(email)}`, EXPIRY);
  }
}
