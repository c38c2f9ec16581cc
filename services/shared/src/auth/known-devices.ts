import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieOf } from './guest-identity.ts';

/** The cookie by which a browser shows it has logged in to an account before. */
export const DEVICE_COOKIE = 'kapda_device';
/** Sent only with log-ins: no other route reads it. */
const COOKIE_PATH = '/api/auth/login';
const NINETY_DAYS_SECONDS = 90 * 24 * 60 * 60;
const VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The account a log-in is for, as accounts are found by e-mail: trimmed, lower case. */
export const loginAccountOf = (email: string): string => email.trim().toLowerCase();

/**
 * Browsers that have logged in to an account: each successful log-in sets an HttpOnly cookie holding an
 * expiry and an HMAC of (account, expiry) with a key derived from JWT_SECRET (every process of one shop
 * agrees; the e-mail itself is not in the cookie). Its holder is exempt from the account-wide failure lock
 * (loginLimits), so guessers spread over many addresses cannot lock the owner out of their own devices.
 * One account per browser: a log-in to another account replaces it.
 */
export class KnownDevices {
  private readonly key: Buffer;

  constructor(
    jwtSecret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', jwtSecret).update('known-device').digest();
  }

  /** The cookie value for `email`'s account, valid until `expiresAtSeconds` (Unix time). */
  sign(email: string, expiresAtSeconds: number): string {
    return `${expiresAtSeconds}.${this.mac(loginAccountOf(email), expiresAtSeconds)}`;
  }

  /** Whether this request comes from a browser that logged in to `email`'s account before (and not long ago). */
  knows(req: Request, email: string): boolean {
    const m = VALUE.exec(cookieOf(req, DEVICE_COOKIE) ?? '');
    if (!m) return false;
    const expiresAt = Number(m[1]);
    if (expiresAt * 1000 <= this.clock().getTime()) return false;
    return timingSafeEqual(Buffer.from(m[2]!), Buffer.from(this.mac(loginAccountOf(email), expiresAt)));
  }

  /** Sets the cookie on a successful log-in's answer (before it is sent). */
  remember(req: Request, res: Response, email: string): void {
    const expiresAt = Math.floor(this.clock().getTime() / 1000) + NINETY_DAYS_SECONDS;
    const attributes = [`Path=${COOKIE_PATH}`, `Max-Age=${NINETY_DAYS_SECONDS}`, 'HttpOnly', 'SameSite=Strict'];
    if (req.secure) attributes.push('Secure');
    res.append('Set-Cookie', `${DEVICE_COOKIE}=${this.sign(email, expiresAt)}; ${attributes.join('; ')}`);
  }

  private mac(account: string, expiresAt: number): string {
    return createHmac('sha256', this.key).update(`${account}\n${expiresAt}`).digest('base64url');
  }
}
