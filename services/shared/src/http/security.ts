import cors from 'cors';
import type { Request, RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer that is not the web app (API JSON, uploads, metrics): nothing
 * may load from it as a document and nothing may frame it. The web app's HTML and files replace it with
 * their own (services/gateway/src/web.ts WEB_APP_CSP), set as they are served.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Strict-Transport-Security, sent only on https requests: 180 days, this host only (not its subdomains). */
const HSTS_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/**
 * helmet's security headers on every answer, with these choices:
 * - CSP `default-src 'none'; frame-ancestors 'none'` (API_CSP), X-Frame-Options DENY;
 * - Cross-Origin-Opener-Policy `same-origin-allow-popups`: Razorpay's checkout may open a bank's or UPI
 *   app's page in a popup and needs to keep talking to it;
 * - HSTS only on requests that came over https (req.secure: TLS here, or X-Forwarded-Proto https from a
 *   trusted proxy): a shop on plain http (localhost) gets none, which browsers would ignore anyway, and a
 *   shop behind TLS gets 180 days without includeSubDomains, since it does not own its sibling hosts;
 * - the rest as helmet has them (nosniff, Referrer-Policy no-referrer, CORP same-origin, no DNS prefetch,
 *   X-XSS-Protection 0, Origin-Agent-Cluster, X-Permitted-Cross-Domain-Policies none).
 */
export function securityHeaders(): RequestHandler {
  const always = helmetHeaders(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      frameguard: { action: 'deny' },
      strictTransportSecurity: false,
    }),
  );
  const overHttps = helmetHeaders(
    helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }),
  );
  return (req, res, next) => {
    for (const name of always.removed) res.removeHeader(name);
    for (const [name, value] of always.set) res.setHeader(name, value);
    if (cameOverHttps(req)) for (const [name, value] of overHttps.set) res.setHeader(name, value);
    next();
  };
}

/**
 * What a helmet middleware sets and removes, found once by running it against a recording answer. With the
 * options above its headers never depend on the request (no per-request CSP nonce), so every answer gets the
 * same list, set in one loop: running helmet's dozen chained middlewares per request cost about 15 µs of the
 * hot product list's CPU (profile for issue 14).
 */
function helmetHeaders(middleware: (req: never, res: never, next: (err?: unknown) => void) => void): {
  set: Array<[string, string]>;
  removed: string[];
} {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void set.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let failure: unknown;
  let done = false;
  middleware({} as never, recorder as never, (err) => {
    failure = err;
    done = true;
  });
  if (failure || !done) throw new Error(`helmet did not finish synchronously: ${String(failure)}`);
  return { set, removed };
}

/**
 * req.secure, asked only when it can be true: over TLS here, or with an X-Forwarded-Proto header (then
 * express believes it only from a trusted proxy). A plain-http request skips express's trust-proxy check,
 * which parses the peer's address on every call.
 */
const cameOverHttps = (req: Request): boolean =>
  (req.socket as { encrypted?: boolean }).encrypted === true ||
  (req.headers['x-forwarded-proto'] !== undefined && req.secure);

/** The methods and request headers the shop's API uses, all a listed origin may send. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CORS_HEADERS = ['Authorization', 'Content-Type'];

/** CORS_ORIGINS ("https://a.example, http://localhost:5173") as a list of exact origins. */
export const parseCorsOrigins = (spec: string | undefined): string[] =>
  (spec ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * The CORS policy. With no origins listed (the default) nothing is added: browsers let only the shop's own
 * pages read its answers (same-origin). Listed origins (CORS_ORIGINS, exact match) may call the API with
 * the methods it uses and the Authorization and Content-Type headers, without cookies or other credentials
 * (the API takes a bearer token, never a cookie); a preflight is answered 204 and cached for 10 minutes.
 * Other origins get no Access-Control-Allow-Origin, so their pages cannot read the answers.
 */
export function corsPolicy(origins: string[]): RequestHandler | null {
  if (origins.length === 0) return null;
  const allowed = new Set(origins);
  return cors({
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    credentials: false,
    methods: CORS_METHODS,
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
