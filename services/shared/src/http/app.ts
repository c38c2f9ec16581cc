import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { AppError, httpStatusOf, RefusedError } from '../errors/errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { compressResponses } from './compression.ts';
import type { RateLimitStore } from './rate-limit.ts';
import { refuseUnsafeText } from './safe-text.ts';
import { corsPolicy, parseCorsOrigins, securityHeaders } from './security.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's id (also in the x-request-id answer header). */
    id: string;
    /** A logger tagged with the request id. */
    log: Logger;
    /** The JSON body's bytes as received. */
    rawBody?: Buffer;
  }
}

const REQUEST_ID = /^[\w-]{1,100}$/;

/** The request's id: its `x-request-id` header when well formed, else a new one. */
export const requestIdOf = (headers: IncomingHttpHeaders): string => {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
};

/** Answers that are business refusals (a RefusedError's 409): counted in refusals_total, logged at debug only. */
const refused = new WeakSet<ServerResponse>();

/** Marks the answer as a business refusal: requestContext logs it at debug, not warn. */
export const markRefused = (res: ServerResponse): void => void refused.add(res);

/**
 * Request id (taken from `x-request-id` when well formed, else new), a child logger made only when
 * something logs, one latency observation, and a log line per request at debug (2xx/3xx), warn (4xx) or
 * error (5xx). Every process's one request logger (the services' and the distributed gateway's, through
 * createHttpApp). Kept instead of pino-http, which makes two child loggers per request even when nothing logs
 * (about a third fewer requests per second on a bare express route, measured for issue 14).
 */
export function requestContext(opts: { logger: Logger; metrics: Metrics }): RequestHandler {
  const { logger, metrics } = opts;
  return (req, res, next) => {
    const id = requestIdOf(req.headers);
    res.setHeader('x-request-id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'id', { value: id, configurable: true });
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: id })), configurable: true });
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.statusCode;
      const route = routeOf(req);
      metrics.httpDuration.observe({ method: req.method, route, status }, seconds);
      const level = status >= 500 ? 'error' : status >= 400 && !refused.has(res) ? 'warn' : 'debug';
      if (logger.isLevelEnabled(level)) {
        req.log[level](
          { method: req.method, url: req.originalUrl, status, ms: Math.round(seconds * 1e4) / 10 },
          'request completed',
        );
      }
    });
    next();
  };
}

/** The route a request matched, as metrics label it ('unmatched' when none did). */
const routeOf = (req: Request): string => (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');

/**
 * Express 'trust proxy' from TRUST_PROXY: a hop count (`1`: the address the nearest proxy saw, e.g. a service
 * behind the gateway on another host), or the proxies to believe (`loopback`, `uniquelocal`, addresses, CIDRs).
 */
export const trustProxySetting = (value: string): number | string => (/^\d+$/.test(value) ? Number(value) : value);

/** A body bigger than the route takes: 413 with the message (the error handler answers `e.status`). */
export class PayloadTooLargeError extends Error {
  readonly status = 413;
}

/** The largest JSON body the API reads (the payment webhook's and the admin forms' included). */
export const JSON_BODY_LIMIT = '1mb';

/** Request bodies the API reads: JSON everywhere, multipart forms where a route takes an image. */
const READABLE_BODIES = ['application/json', 'multipart/form-data'];

/**
 * A body of any other type (a form post, text, XML, or none said) sent to /api or /internal: 415 saying what
 * to send, instead of a route seeing no body and answering a puzzling "field is required".
 */
export const refuseUnreadableBodies: RequestHandler = (req, res, next) => {
  if (!/^\/(api|internal)\//.test(req.path) || !hasBody(req.headers)) return next();
  if (req.is(READABLE_BODIES)) return next();
  const type = req.headers['content-type'];
  res.status(415).json({
    message: `Unsupported Content-Type ${type ? `"${type}"` : '(none given)'}: send the body as JSON with Content-Type application/json (image uploads: multipart/form-data)`,
  });
};

/** Whether a request carries a body (Content-Length above 0, or chunked). */
const hasBody = (headers: Record<string, unknown>) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * An express app with request ids, JSON logs, latency metrics, security headers (helmet), the CORS policy,
 * and a JSON body parser (at most JSON_BODY_LIMIT: 413 "Request body too large" past it).
 */
export function createHttpApp(opts: {
  logger: Logger;
  metrics: Metrics;
  jsonLimit?: string;
  /** TRUST_PROXY: whose X-Forwarded-For gives req.ip (default: proxies on loopback). */
  trustProxy?: string;
  /** CORS_ORIGINS: other origins whose pages may call the API (default: none, same-origin only). */
  corsOrigins?: string;
  /** Where rateLimit() and loginLimits() count (default: each in its own memory). */
  rateLimits?: RateLimitStore;
  /** false: bodies are left unread (the distributed gateway streams them on to the services, which read them). */
  readBodies?: boolean;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustProxySetting(opts.trustProxy ?? 'loopback'));
  if (opts.rateLimits) app.locals.rateLimits = opts.rateLimits;
  app.use(requestContext(opts));
  app.use(securityHeaders());
  const cors = corsPolicy(parseCorsOrigins(opts.corsOrigins));
  if (cors) app.use(cors);
  app.use(compressResponses());
  app.use(refuseUnreadableBodies);
  if (opts.readBodies === false) return app;
  // The raw bytes are kept for signature checks (payment webhooks sign the exact body).
  app.use(
    express.json({
      limit: opts.jsonLimit ?? JSON_BODY_LIMIT,
      verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf),
    }),
  );
  // NUL and lone surrogates in the body, query or path: a 400 naming the field, not a 500 from Postgres.
  app.use(refuseUnsafeText());
  return app;
}

/** The one place errors become HTTP answers: `{ message }` with the status of the error's kind. */
export function errorHandler(logger: Logger, metrics?: Metrics): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof AppError) {
      const title = (err as { title?: unknown }).title;
      if (err instanceof RefusedError) {
        markRefused(res);
        metrics?.refusals.inc({ route: routeOf(req), by: 'app' });
      }
      res.status(httpStatusOf[err.kind]).json({
        message: err.message,
        ...(typeof title === 'string' ? { title } : {}),
        ...(err.details && err.kind === 'validation' ? { errors: err.details } : {}),
      });
      return;
    }
    const e = err as { type?: string; status?: number; code?: string; message?: string; field?: string };
    if (e.type === 'entity.parse.failed') return void res.status(400).json({ message: 'Malformed JSON body' });
    if (e.type === 'entity.too.large') return void res.status(413).json({ message: 'Request body too large' });
    if (e.code === 'LIMIT_FILE_SIZE') return void res.status(413).json({ message: 'Image too large' });
    if (e.code === 'LIMIT_FIELD_VALUE')
      return void res
        .status(413)
        .json({ message: e.field ? `Form field ${e.field} too large` : 'Form field too large' });
    if (typeof e.code === 'string' && e.code.startsWith('LIMIT_'))
      return void res.status(400).json({ message: e.message ?? 'Bad upload' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return void res.status(e.status).json({ message: e.message ?? 'Bad request' });
    if (isDatabaseUnavailable(err)) {
      // Postgres is restarting or unreachable: worth a retry in a moment, unlike a 500.
      ((req as { log?: Logger }).log ?? logger).warn({ err: e.message }, 'database unavailable');
      res.setHeader('Retry-After', '1');
      return void res.status(503).json({ message: 'Service temporarily unavailable, please try again' });
    }
    ((req as { log?: Logger }).log ?? logger).error({ err }, 'unhandled error');
    res.status(500).json({ message: 'Internal server error' });
  };
}

/** 404 for unknown /api paths, as JSON. */
export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ message: `No route for ${req.method} ${req.originalUrl.split('?')[0]}` });
};
