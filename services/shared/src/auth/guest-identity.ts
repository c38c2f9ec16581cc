import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { SignedIds } from './signed-ids.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * This browser's guest identity: the id in its signed `kapda_guest` cookie, or a new one (the cookie is then
     * set on the answer). Made only when something reads it, so answers that never ask set no cookie.
     */
    guestId: string;
  }
}

/** The cookie that carries a browser's signed guest identity. */
export const GUEST_COOKIE = 'kapda_guest';

/** A guest id: 128 random bits, base64url. */
const GUEST_ID = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Tells guests apart without trusting the caller: each browser gets an id of its own in an HttpOnly cookie, signed
 * with a key derived from JWT_SECRET (so every process of one shop accepts it). Guest limits (live checkouts,
 * payment calls) and the ownership of a guest's checkout are keyed on it, so a crowd of guests behind one carrier's
 * NAT is a crowd of buyers, not one. A caller can always drop the cookie and get a new id: the per-address budget
 * stays as the backstop against that.
 */
export class GuestIdentity {
  private readonly ids: SignedIds;

  constructor(jwtSecret: string) {
    this.ids = new SignedIds(jwtSecret, 'guest-identity', GUEST_ID);
  }

  /** The cookie value for `id`: `<id>.<mac>`. */
  sign(id: string): string {
    return this.ids.sign(id);
  }

  /** The id a cookie value carries, or null when it is malformed or its signature does not match. */
  read(value: string | undefined): string | null {
    return value ? this.ids.read(value) : null;
  }

  /** Defines `req.guestId` (lazily: the cookie is read, or minted and set, on first use). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      let id: string | undefined;
      Object.defineProperty(req, 'guestId', {
        configurable: true,
        get: () => (id ??= this.read(cookieOf(req, GUEST_COOKIE)) ?? this.mint(req, res)),
      });
      next();
    };
  }

  private mint(req: Request, res: Response): string {
    const id = randomBytes(16).toString('base64url');
    if (!res.headersSent) {
      const attributes = ['Path=/', `Max-Age=${ONE_YEAR_SECONDS}`, 'HttpOnly', 'SameSite=Lax'];
      if (isHttps(req)) attributes.push('Secure');
      res.append('Set-Cookie', `${GUEST_COOKIE}=${this.sign(id)}; ${attributes.join('; ')}`);
    }
    return id;
  }
}

/** Over TLS, or behind a proxy that says so (asked only then: `req.secure` parses the trusted proxy chain). */
const isHttps = (req: Request): boolean =>
  (req.socket as { encrypted?: boolean }).encrypted === true ||
  (req.headers['x-forwarded-proto'] !== undefined && req.secure);

/** One cookie's value from the Cookie header (no cookie-parser: this is the only cookie the API reads). */
export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Who is buying, keyed on what the caller cannot forge: the account when signed in, else the browser's signed guest
 * identity. Per-buyer limits and checkout ownership use it.
 */
export const buyerKeyOf = (req: Request): string => (req.user ? `user:${req.user.id}` : `guest:${req.guestId}`);

/** The client address as a limit key: the backstop budget shared by everyone behind one address. */
export const clientAddressKeyOf = (req: Request): string => `ip:${req.ip ?? 'unknown'}`;
