import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { CreateOrderRules } from '@shop/checkout';
import { GUEST_COOKIE, type GuestIdentity } from '@shop/shared/auth/guest-identity';
import type { ReserveLine } from '@shop/shared/contracts/inventory';
import { markRefused, requestContext } from '@shop/shared/http/app';
import { cookieOf } from '@shop/shared/http/cookies';
import { isLimitRefusal, limiterOf, retryAfterSeconds, type RateLimitStore } from '@shop/shared/http/rate-limit';
import { assertSafeText, assertShallow } from '@shop/shared/http/safe-text';
import { securityHeaders } from '@shop/shared/http/security';
import type { Logger } from '@shop/shared/observability/logger';
import type { Metrics } from '@shop/shared/observability/metrics';

/** The one request answered before express (or, in the distributed gateway, before its proxy). */
export const CREATE_ORDER_PATH = '/api/payment/create-order';

/** The largest body read here; a bigger one goes to express unread (which reads up to JSON_BODY_LIMIT). */
const MAX_RAW_BODY_BYTES = 64 * 1024;

/** `application/json`, with no charset or utf-8 (what express's JSON parser reads as this does). */
const JSON_TYPE = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

/** The refusal of a create-order that stock alone decides (the seeds' title and message). */
export type StockRefusal = { title: string; message: string };

export interface RawCreateOrderOptions {
  /** The app everything else goes to, untouched; its trust proxy setting gives req.ip, its store counts limits. */
  app: Express;
  /** The route's own rules (checkout's CreateOrderRules). */
  rules: CreateOrderRules;
  /** The inventory's certain refusal of these lines from memory, else null (Inventory.refusalFromMemory). */
  refusalFromMemory(lines: ReserveLine[]): Promise<StockRefusal | null>;
  /** The app's guest identity (same JWT_SECRET): a first visit's cookie is minted as the route mints it. */
  guestIdentity: GuestIdentity;
  logger: Logger;
  metrics: Metrics;
  /** CORS_ORIGINS: when any is listed, every create-order goes to express (its CORS headers vary by origin). */
  corsOrigins: string[];
  /**
   * The distributed gateway's answer: the route is checkout's, whose answer the proxy writes with the header
   * names it received (lower case, in the order the gateway's own headers were set): written so here too.
   */
  asProxied?: boolean;
}

/**
 * A sold-out create-order answered before express (issue 24: a refusal cost ~1.1 ms of CPU through express, its
 * router, body parser, domain and error handler). A node 'request' listener in front of the app: only POST
 * /api/payment/create-order from a first-visit guest (no Authorization header, no valid guest cookie: the route
 * then replaces no earlier checkout) with a small JSON body is read here. The body is parsed as express's JSON
 * parser parses it, checked as refuseUnsafeText checks it, and validated with the route's own schema and cart
 * rules (CreateOrderRules); when the inventory is certain from memory that every line is sold out, the route's
 * rate limits are counted as the route counts them (a refusal counts against both, as it does through express)
 * and the very same 409 is answered: status, JSON body and headers (request id, helmet's headers, the minted
 * guest cookie, Vary when the client accepts an encoding), counted in refusals_total{by="raw"} instead of a warn
 * log line. Anything else (not sold out, invalid, a coupon, an account, a returning guest, TLS headers, CORS)
 * goes to express as it came, with the body it read handed over (express's parser then leaves it as it is).
 */
export function rawCreateOrder(opts: RawCreateOrderOptions): RequestListener {
  const { app, rules, logger, metrics } = opts;
  const store = app.locals.rateLimits as RateLimitStore | undefined;
  // Without the app's shared store the route counts in a memory of its own, which nothing here can reach.
  if (!store || opts.corsOrigins.length > 0) return app;
  const context = requestContext({ logger, metrics });
  const headers = securityHeaders();
  const guest = opts.guestIdentity.middleware();
  const limits = rules.limitTerms.map((terms) => ({ terms, limiter: limiterOf(store, terms) }));
  const noop = () => undefined;

  /**
   * The request as the app's middleware read it (headers, method, url, req.ip through the app's trust proxy
   * setting), on an object of its own: the node request itself keeps its prototype and shape (express's
   * setPrototypeOf on every request is much of what it costs), and is handed to express untouched.
   */
  const asExpress = (req: IncomingMessage, routed: boolean): Request =>
    Object.create(app.request as object, {
      headers: { value: req.headers },
      method: { value: req.method },
      url: { value: req.url },
      originalUrl: { value: req.url },
      baseUrl: { value: '' },
      socket: { value: req.socket },
      connection: { value: req.socket },
      route: { value: routed ? { path: CREATE_ORDER_PATH } : undefined },
    }) as Request;

  /** The JSON answer as express's res.json writes it (compression adds Vary when an encoding is accepted). */
  const sendJson = (req: Request, res: ServerResponse, status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(Buffer.byteLength(json)));
    const vary = req.headers['accept-encoding'] ? { Vary: 'Accept-Encoding' } : {};
    // writeHead with lower-case names renames the headers set so far in place (what the proxy's writeHead does
    // with the service's answer); the gateway's compression then adds its Vary.
    if (opts.asProxied) res.writeHead(status, { ...res.getHeaders(), ...vary });
    else if (vary.Vary) res.setHeader('Vary', vary.Vary);
    res.end(json);
  };

  /** requestContext and helmet's headers, as createHttpApp runs them first. */
  const begin = (raw: IncomingMessage, res: ServerResponse, routed: boolean) => {
    const req = asExpress(raw, routed);
    context(req, res as Response, noop);
    headers(req, res as Response, noop);
    return req;
  };

  /** What the guest identity's cookie is set on: the answer, as express's res.append would add it. */
  const cookieJar = (res: ServerResponse) =>
    ({
      headersSent: false,
      append: (name: string, value: string) => res.appendHeader(name, value),
    }) as unknown as Response;

  const handle = async (raw: IncomingMessage, res: ServerResponse): Promise<void> => {
    let bytes: Buffer;
    try {
      bytes = await readBody(raw);
    } catch {
      raw.destroy(); // aborted or broken: nobody is waiting for an answer
      return;
    }
    const body = parseJsonAsExpress(bytes);
    if (body === MALFORMED) {
      // express's JSON parser would fail before any route: 400, as its error handler says it.
      return sendJson(begin(raw, res, false), res, 400, { message: 'Malformed JSON body' });
    }
    // From here on express gets the body as its parser would have left it (it reads nothing more).
    const handOver = () => {
      Object.assign(raw, { body, rawBody: bytes });
      app(raw, res);
    };
    let refusal: StockRefusal | null;
    try {
      assertShallow(body);
      assertSafeText(body);
      const lines = rules.stockDecidedLines(body);
      refusal = lines && (await opts.refusalFromMemory(lines));
    } catch {
      refusal = null; // unsafe text, or anything unexpected: the route answers it
    }
    if (!refusal) return handOver();

    const req = begin(raw, res, true);
    guest(req, cookieJar(res), noop);
    for (const { terms, limiter } of limits) {
      const key = terms.key(req);
      try {
        await limiter.consume(key);
      } catch (err) {
        if (isLimitRefusal(err)) {
          res.setHeader('Retry-After', String(retryAfterSeconds(err)));
          return sendJson(req, res, 429, { message: terms.message });
        }
        req.log.error({ err, limit: terms.name }, 'rate limit could not count; letting the request through');
      }
    }
    // The stock was decided before the limits were counted (the route counts first, then asks the stock):
    // the answer is the stock's as it was when the request was read, a moment before; the buyer is refused
    // either way only if they raced a release, as they would one request earlier.
    markRefused(res);
    metrics.refusals.inc({ route: CREATE_ORDER_PATH, by: 'raw' });
    sendJson(req, res, 409, { message: refusal.message, title: refusal.title });
  };

  return (req, res) => {
    if (req.method !== 'POST' || req.url !== CREATE_ORDER_PATH || !readHere(req, opts.guestIdentity))
      return app(req, res);
    handle(req, res).catch((err: unknown) => {
      logger.error({ err }, 'create-order before express failed');
      if (!res.headersSent) res.destroy();
    });
  };
}

/**
 * Whether the request is one this handler reads: a first-visit guest's small JSON body that express would
 * read as it does (no content coding, utf-8), over plain http (no X-Forwarded-Proto: HSTS and Secure cookies).
 */
function readHere(req: IncomingMessage, guests: GuestIdentity): boolean {
  const h = req.headers;
  if (h.authorization !== undefined || h['content-encoding'] !== undefined || h['transfer-encoding'] !== undefined)
    return false;
  if (h['x-forwarded-proto'] !== undefined || (req.socket as { encrypted?: boolean }).encrypted) return false;
  const type = h['content-type'];
  if (!type || !JSON_TYPE.test(type)) return false;
  const length = Number(h['content-length']);
  if (!(length > 0 && length <= MAX_RAW_BODY_BYTES)) return false;
  // A returning guest: the route first replaces their earlier checkout.
  if (h.cookie && guests.read(cookieOf(req as Request, GUEST_COOKIE)) !== null) return false;
  return true;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('aborted')));
  });
}

const MALFORMED = Symbol('malformed');

/**
 * The body as express.json() (body-parser, strict) reads it: utf-8 without a byte-order mark, an object or an
 * array, else the parse failure its error handler answers 400 "Malformed JSON body".
 */
function parseJsonAsExpress(bytes: Buffer): unknown {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // trimStart drops more than JSON's whitespace, but JSON.parse refuses any such character anyway.
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return MALFORMED;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return MALFORMED;
  }
}
