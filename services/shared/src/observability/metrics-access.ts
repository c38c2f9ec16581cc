import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/errors.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The bearer token of a request, if any. */
export const bearerOf = (req: Request): string | undefined => {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
};

/**
 * Guards GET /metrics (sales, sign-ups and traffic figures are not for the public): the METRICS_TOKEN as
 * a bearer (what Prometheus sends with `authorization: { credentials: ... }`), compared timing-safely, or an
 * admin's token. 401 without either, 403 for a valid non-admin token. `roleOf` says what a bearer that is
 * not the metrics token is: the services read req.user (set by authenticate()), the distributed gateway
 * asks the accounts service.
 */
export function requireMetricsAccess(opts: {
  metricsToken?: string;
  roleOf: (req: Request, bearer: string) => Promise<'admin' | 'user' | null>;
}): RequestHandler {
  const expected = opts.metricsToken ? digest(opts.metricsToken) : undefined;
  const refusal = opts.metricsToken
    ? 'Metrics need the METRICS_TOKEN bearer or an admin token'
    : 'Metrics need an admin token (or set METRICS_TOKEN for Prometheus)';
  return (req, res, next) => {
    const bearer = bearerOf(req);
    if (!bearer) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return next(new UnauthorizedError(refusal));
    }
    if (expected && timingSafeEqual(digest(bearer), expected)) return next();
    opts.roleOf(req, bearer).then((role) => {
      if (role === 'admin') return next();
      if (role === 'user') return next(new ForbiddenError('Admin access required'));
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics", error="invalid_token"');
      next(new UnauthorizedError(refusal));
    }, next);
  };
}
