import http from 'node:http';
import type { Express, Request, Response } from 'express';
import express from 'express';
import { errorHandler, refuseUnreadableBodies, requestContext } from '@shop/shared/http/app';
import { corsPolicy, parseCorsOrigins, securityHeaders } from '@shop/shared/http/security';
import { requireMetricsAccess } from '@shop/shared/observability/metrics-access';
import { UnavailableError } from '@shop/shared/errors/errors';
import { compressResponses } from '@shop/shared/http/compression';
import type { ProductListCache } from '@shop/catalog';
import { SERVICE_ROUTES } from '@shop/shared/runtime/service';
import type { Logger } from '@shop/shared/observability/logger';
import type { Metrics } from '@shop/shared/observability/metrics';
import { apiDocsRouter } from './api-docs.ts';
import { serveWebApp } from './web.ts';

/** Parses SERVICE_URLS ("catalog=http://127.0.0.1:8081,accounts=...") into a map. */
export function parseServiceUrls(spec: string): Map<string, URL> {
  const map = new Map<string, URL>();
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, url] = part.split('=');
    if (!name || !url) throw new Error(`SERVICE_URLS entry "${part}" is not name=url`);
    map.set(name, new URL(url));
  }
  return map;
}

/** The service owning a path, by the documented route prefixes. */
export function ownerOf(pathname: string): string | undefined {
  for (const [service, prefixes] of Object.entries(SERVICE_ROUTES)) {
    if (prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return service;
  }
  return undefined;
}

/** The largest body forwarded: JSON_BODY_LIMIT (1 MB), as the services read it. */
const MAX_FORWARDED_BODY_BYTES = 1024 * 1024;
/** The largest multipart form forwarded: the home page's 20 slides of 5 MB images and the text fields. */
const MAX_FORWARDED_FORM_BYTES = 128 * 1024 * 1024;
const TOO_LARGE = { message: 'Request body too large' };

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * The distributed gateway: keeps the documented REST paths and forwards each to the owning service
 * process, streaming bodies both ways (uploads and Server-Sent Events pass through unbuffered).
 */
export function createProxyGateway(opts: {
  services: Map<string, URL>;
  logger: Logger;
  metrics: Metrics;
  mount?: (app: Express) => void;
  /** The public product list straight from the shared cache (Redis); misses go to the catalog service. */
  productList?: ProductListCache;
  /** Bearer token Prometheus sends for /metrics (METRICS_TOKEN); admins' tokens work too. */
  metricsToken?: string;
  /** CORS_ORIGINS: other origins whose pages may call the API (default: none, same-origin only). */
  corsOrigins?: string;
}): Express {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(requestContext({ logger: opts.logger, metrics: opts.metrics }));
  // The services' headers and CORS policy, on the gateway's own answers and on what it forwards.
  app.use(securityHeaders());
  const cors = corsPolicy(parseCorsOrigins(opts.corsOrigins));
  if (cors) app.use(cors);
  app.use(refuseUnreadableBodies);
  // Answers the services compressed already pass through as they are (compression skips encoded bodies).
  app.use(compressResponses());

  app.get('/api/health', async (_req, res) => {
    const deps = await Promise.all(
      [...opts.services].map(async ([name, base]) => {
        try {
          const r = await fetch(new URL('/api/health', base), { signal: AbortSignal.timeout(2500) });
          const body = (await r.json()) as { dependencies?: unknown };
          return { name, ok: r.ok, adapter: base.origin, dependencies: body.dependencies };
        } catch (err) {
          return { name, ok: false, adapter: base.origin, detail: (err as Error).message };
        }
      }),
    );
    const ok = deps.every((d) => d.ok);
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ok' : 'degraded', service: 'gateway', mode: 'distributed', dependencies: deps });
  });
  // Admins (the accounts service says who is one: it knows whether the user still exists) or Prometheus
  // with the METRICS_TOKEN bearer.
  const metricsAccess = requireMetricsAccess({
    metricsToken: opts.metricsToken,
    roleOf: async (_req, bearer) => {
      const accounts = opts.services.get('accounts');
      if (!accounts) return null;
      const r = await fetch(new URL('/api/auth/me', accounts), {
        headers: { authorization: `Bearer ${bearer}` },
        signal: AbortSignal.timeout(5000),
      }).catch(() => {
        throw new UnavailableError('Cannot check the token right now (accounts service unreachable)');
      });
      if (!r.ok) return null;
      return ((await r.json()) as { isAdmin?: unknown }).isAdmin === true ? 'admin' : 'user';
    },
  });
  app.get('/metrics', metricsAccess, async (_req, res) => {
    res.setHeader('Content-Type', opts.metrics.registry.contentType);
    res.end(await opts.metrics.registry.metrics());
  });

  // The API's OpenAPI document and docs page, from the route table: the gateway answers them itself.
  app.use(apiDocsRouter());

  opts.mount?.(app);

  const list = opts.productList;
  if (list) {
    // The sale-spike read skips the hop to the catalog service when Redis already holds the list.
    app.get('/api/products', async (req, res, next) => {
      if (Object.keys(req.query).length > 0) return next();
      const body = await list.peek(false).catch(() => null);
      if (!body) return next();
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('X-Cache', 'gateway');
      res.end(body);
    });
    // A write through this gateway drops its copy once answered, so the writer's next read is fresh
    // (other gateways hear of it by pub/sub).
    app.use(['/api/products', '/api/payment'], (req, res, next) => {
      if (req.method !== 'GET') res.once('finish', () => list.dropLocalCopy());
      next();
    });
  }

  const forward = (req: Request, res: Response, target: URL) => {
    // Too large a body is answered 413 here, before any of it is forwarded when its length is declared; a
    // chunked one is cut when it passes the limit. Either way the rest of the body is read and dropped
    // (Node does so once the answer is sent), so the client gets the 413 rather than a reset connection.
    const maxBytes = req.is('multipart/form-data') ? MAX_FORWARDED_FORM_BYTES : MAX_FORWARDED_BODY_BYTES;
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return void res.status(413).json(TOO_LARGE);
    // Set once this request no longer needs the service: its upstream errors are then of no interest.
    let done = false;
    /** Stops forwarding the client's body and reads the rest of it into the void. */
    const stopForwarding = () => {
      done = true;
      req.unpipe(upstream);
      upstream.destroy();
      req.resume();
    };
    if (req.headers['content-length'] === undefined) {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen <= maxBytes || done) return;
        if (!res.headersSent) res.status(413).json(TOO_LARGE);
        stopForwarding();
      });
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
    headers['x-request-id'] = String(req.id);
    headers['x-forwarded-for'] = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    headers['x-forwarded-host'] = req.headers.host;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.originalUrl, headers, agent },
      (up) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(up.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
        res.writeHead(up.statusCode ?? 502, out);
        if (String(up.headers['content-type']).startsWith('text/event-stream')) res.flushHeaders();
        up.pipe(res);
        // A service that answered before reading the whole body (a 413, a 401) leaves the rest unread: piping
        // it on would stall once the socket buffers fill, and the client's connection with it.
        up.once('end', () => {
          if (!req.complete) stopForwarding();
        });
      },
    );
    upstream.on('error', (err) => {
      if (done) return;
      req.log.error({ err, target: target.origin }, 'upstream failed');
      if (!res.headersSent) res.status(502).json({ message: 'Service temporarily unavailable, please try again' });
      else res.destroy(err);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  app.use((req, res, next) => {
    const owner = ownerOf(req.path);
    if (!owner) return next();
    const target = opts.services.get(owner);
    if (!target) return void res.status(503).json({ message: `Service ${owner} is not configured (SERVICE_URLS)` });
    forward(req, res, target);
  });
  // /internal/* (service-to-service) is never forwarded from the public port.
  app.use(
    ['/api', '/internal'],
    (req, res) => void res.status(404).json({ message: `No route for ${req.method} ${req.originalUrl.split('?')[0]}` }),
  );
  serveWebApp(app);
  app.use(errorHandler(opts.logger));
  return app;
}
