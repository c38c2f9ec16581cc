import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError, UnavailableError } from '../errors/errors.ts';
import type { UserDirectory } from './user-directory.ts';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  /**
   * The user's session generation the token was issued in (claim `sv`, 0 when absent): a password reset moves
   * the user's on, and a token of an earlier one is refused (its session has ended).
   */
  sessionVersion?: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
  }
}

/** Subjects of service tokens (`service:<name>`): the shop's own processes, never a user. */
const SERVICE_SUBJECT = /^service:(accounts|catalog|checkout|order|gateway)$/;
export const isServiceSubject = (subject: string) => SERVICE_SUBJECT.test(subject);

/** How long a push-stream ticket (TokenService.signStreamTicket) may be used to open the stream. */
export const STREAM_TICKET_SECONDS = 60;
const STREAM_TICKET_PURPOSE = 'push-stream';

/** Issues and checks HS256 access tokens, and the short-lived tickets that open a push stream. */
export class TokenService {
  /**
   * `users`: where authenticate() checks that a token's user still exists (and reads whether they are an
   * admin now). Without it, a well-signed token is trusted as it stands (tests of pure token logic).
   */
  constructor(
    private readonly secret: string,
    private readonly expiresIn: string = '7d',
    private readonly users?: UserDirectory,
  ) {}

  sign(user: AuthUser): string {
    const sv = user.sessionVersion ?? 0;
    return jwt.sign({ email: user.email, name: user.name, isAdmin: user.isAdmin, ...(sv ? { sv } : {}) }, this.secret, {
      algorithm: 'HS256',
      subject: user.id,
      expiresIn: this.expiresIn as jwt.SignOptions['expiresIn'],
    });
  }

  /** A token of one of the shop's own processes (`service:<name>`), for its calls to another service's /internal routes. */
  signService(name: 'accounts' | 'catalog' | 'checkout' | 'order' | 'gateway'): string {
    return this.sign({ id: `service:${name}`, name, email: `${name}@services.internal`, isAdmin: false });
  }

  /** Returns the token's user, or null when the token is missing, forged or expired. */
  verify(token: string): AuthUser | null {
    return this.verifyWith(token, this.secret);
  }

  /**
   * A ticket that opens a push stream (QUERY_TOKEN_PATHS) for `user` within STREAM_TICKET_SECONDS: what
   * travels in the stream's URL instead of the access token (EventSource cannot send headers, and URLs end
   * up in logs). Signed with a key of its own, so it is no bearer token anywhere else.
   */
  signStreamTicket(user: AuthUser): string {
    return jwt.sign(
      { email: user.email, name: user.name, isAdmin: user.isAdmin, purpose: STREAM_TICKET_PURPOSE },
      this.ticketKey(),
      { algorithm: 'HS256', subject: user.id, expiresIn: STREAM_TICKET_SECONDS },
    );
  }

  /** The user a stream ticket was issued to, or null when it is forged, expired or not a stream ticket. */
  verifyStreamTicket(ticket: string): AuthUser | null {
    return this.verifyWith(ticket, this.ticketKey(), STREAM_TICKET_PURPOSE);
  }

  private ticketKey(): string {
    return createHmac('sha256', this.secret).update('stream-ticket').digest('base64url');
  }

  private verifyWith(token: string, key: string, purpose?: string): AuthUser | null {
    try {
      const p = jwt.verify(token, key, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      if (typeof p.sub !== 'string' || p.purpose !== purpose) return null;
      const user: AuthUser = { id: p.sub, email: String(p.email), name: String(p.name), isAdmin: p.isAdmin === true };
      if (typeof p.sv === 'number' && Number.isSafeInteger(p.sv) && p.sv > 0) user.sessionVersion = p.sv;
      return user;
    } catch {
      return null;
    }
  }

  /**
   * Sets req.user from `Authorization: Bearer` (or, on a push stream, a `?ticket=` from POST
   * /api/orders/stream-ticket, or the older `?access_token=`) when the token is
   * valid and its subject is real: a user who exists in the accounts projection (admin rights as stored
   * there now) whose session has not ended (the token's generation is the user's current one: a password reset
   * ends the sessions before it), or one of the shop's services (`service:<name>`, never an admin). A token of a
   * deleted or unknown user, of an ended session, or of an unknown service, leaves the request anonymous, so
   * guarded routes answer 401.
   */
  authenticate(): RequestHandler {
    return (req, _res, next) => {
      const header = req.headers.authorization;
      // The scheme is case-insensitive (RFC 9110 section 11.1): `bearer x` is `Bearer x`.
      const bearer = header && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
      const query: Request['query'] =
        !bearer && req.method === 'GET' && QUERY_TOKEN_PATHS.has(req.path) ? req.query : {};
      const token = bearer || (typeof query.access_token === 'string' ? query.access_token : undefined);
      const claimed =
        typeof query.ticket === 'string' ? this.verifyStreamTicket(query.ticket) : token ? this.verify(token) : null;
      if (!claimed) return next();
      if (claimed.id.startsWith('service:')) {
        if (isServiceSubject(claimed.id)) req.user = { ...claimed, isAdmin: false };
        return next();
      }
      if (!this.users) {
        req.user = claimed;
        return next();
      }
      const sessionVersion = claimed.sessionVersion ?? 0;
      this.users.find(claimed.id, sessionVersion).then(
        (found) => {
          if (found && (found.sessionVersion ?? 0) === sessionVersion)
            req.user = { ...claimed, isAdmin: found.isAdmin };
          next();
        },
        (err: unknown) => {
          req.log?.warn({ err }, 'could not check the token user');
          next(new UnavailableError('Could not check your session right now, please try again'));
        },
      );
    };
  }
}

/**
 * The only paths where a credential may travel in the URL: server-sent event streams, because EventSource
 * cannot send headers. The web app sends a 60-second `?ticket=`; `?access_token=` still works for clients
 * loaded before tickets (open pages reconnecting), and is redacted from logs like the ticket (redactUrl).
 * Elsewhere a credential in the URL is ignored (URLs end up in proxy and access logs).
 * The authorization matrix checks that every `stream: true` route of the route table is listed here.
 */
export const QUERY_TOKEN_PATHS: ReadonlySet<string> = new Set(['/api/orders/stream']);

/**
 * 401 unless a valid token of a user was presented: a service token (`service:<name>`) is no one's account,
 * so it neither reads nor writes anything of a user's (addresses, orders, the profile, the order stream).
 */
export const requireAuth: RequestHandler = (req, _res, next) => {
  next(req.user && !isServiceSubject(req.user.id) ? undefined : new UnauthorizedError('Please login to continue'));
};

/** The one guard every admin route uses: 401 without a valid token, 403 for a non-admin. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(new UnauthorizedError('Please login to continue'));
  if (!req.user.isAdmin) return next(new ForbiddenError('Admin access required'));
  next();
};

/** Internal routes are for other services only: a token whose subject is `service:<name>`. */
export const requireService: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(new UnauthorizedError('Service token required'));
  if (!req.user.id.startsWith('service:')) return next(new ForbiddenError('Internal route'));
  next();
};
