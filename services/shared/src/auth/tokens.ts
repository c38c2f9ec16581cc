import jwt from 'jsonwebtoken';
import type { RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/errors.ts';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
  }
}

/** Issues and checks HS256 access tokens. */
export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly expiresIn: string = '7d',
  ) {}

  sign(user: AuthUser): string {
    return jwt.sign({ email: user.email, name: user.name, isAdmin: user.isAdmin }, this.secret, {
      algorithm: 'HS256',
      subject: user.id,
      expiresIn: this.expiresIn as jwt.SignOptions['expiresIn'],
    });
  }

  /** Returns the token's user, or null when the token is missing, forged or expired. */
  verify(token: string): AuthUser | null {
    try {
      const p = jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      if (typeof p.sub !== 'string') return null;
      return { id: p.sub, email: String(p.email), name: String(p.name), isAdmin: p.isAdmin === true };
    } catch {
      return null;
    }
  }

  /** Sets req.user from `Authorization: Bearer` (or `?access_token=` for EventSource) when valid. */
  authenticate(): RequestHandler {
    return (req, _res, next) => {
      const header = req.headers.authorization;
      const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      const token = bearer || (typeof req.query.access_token === 'string' ? req.query.access_token : undefined);
      if (token) {
        const user = this.verify(token);
        if (user) req.user = user;
      }
      next();
    };
  }
}

/** 401 unless a valid token was presented. */
export const requireAuth: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : new UnauthorizedError('Please login to continue'));
};

/** The one guard every admin route uses: 401 without a valid token, 403 for a non-admin. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(new UnauthorizedError('Please login to continue'));
  if (!req.user.isAdmin) return next(new ForbiddenError('Admin access required'));
  next();
};
