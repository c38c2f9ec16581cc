import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { cookieOf, setCookie } from '../http/cookies.ts';
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
/** Requests whose guest identity was made for them just now: a browser with no cookie, so no history. */
const mintedFor = new WeakSet<Request>();

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
    mintedFor.add(req);
    setCookie(req, res, {
      name: GUEST_COOKIE,
      value: this.sign(id),
      path: '/',
      maxAgeSeconds: ONE_YEAR_SECONDS,
      sameSite: 'Lax',
    });
    return id;
  }
}

/**
 * Who is buying, keyed on what the caller cannot forge: the account when signed in, else the browser's signed guest
 * identity. Per-buyer limits and checkout ownership use it.
 */
export const buyerKeyOf = (req: Request): string => (req.user ? `user:${req.user.id}` : `guest:${req.guestId}`);

/** The client address as a limit key: the backstop budget shared by everyone behind one address. */
/**
 * Whether this buyer arrived with nothing to their name: a guest whose identity this very request minted (a
 * browser without the cookie) can have no earlier checkout, so none need be looked for.
 */
export const isFirstVisit = (req: Request): boolean => !req.user && mintedFor.has(req);

export const clientAddressKeyOf = (req: Request): string => `ip:${req.ip ?? 'unknown'}`;
