import type { Express } from 'express';
import { apiNotFound, createHttpApp, errorHandler } from '@shop/shared/http/app';
import { requireMetricsAccess } from '@shop/shared/observability/metrics-access';
import { UnavailableError } from '@shop/shared/errors/errors';
import type { ServiceUrls } from '@shop/shared/config/config';
import type { ProductListCache, SoldOutFlags } from '@shop/catalog';
import { healthHandler, metricsHandler, type HealthOfDependency } from '@shop/shared/runtime/host';
import type { Logger } from '@shop/shared/observability/logger';
import type { Metrics } from '@shop/shared/observability/metrics';
import type { RateLimitStore } from '@shop/shared/http/rate-limit';
import { apiDocsRouter } from './api-docs.ts';
import { serviceForwarder, type ServiceForwarder } from './forward.ts';
import { serveWebApp } from './web.ts';

/**
 * The distributed gateway: keeps the documented REST paths and forwards each to the owning service
 * process (forward.ts), on the shared host's app: request ids and logs, security headers, the CORS policy,
 * 415 for unread body types, compression, health, metrics, the JSON 404 and error answers.
 * `upgrade` is for the server's 'upgrade' event.
 */
export function createProxyGateway(opts: {
  services: ServiceUrls;
  logger: Logger;
  metrics: Metrics;
  mount?: (app: Express) => void;
  /** The public product list straight from the shared cache (Redis); misses go to the catalog service. */
  productList?: ProductListCache;
  /** Bearer token Prometheus sends for /metrics (METRICS_TOKEN); admins' tokens work too. */
  metricsToken?: string;
  /** CORS_ORIGINS: other origins whose pages may call the API (default: none, same-origin only). */
  corsOrigins?: string;
  /** Where the services count their rate limits (Redis): the gateway's own create-order refusals count there. */
  rateLimits?: RateLimitStore;
  /** The sold-out flags the gateway refuses create-orders from: a product write through it drops them. */
  soldOutFlags?: Pick<SoldOutFlags, 'dropAll'>;
}): Express & Pick<ServiceForwarder, 'upgrade'> {
  const services = Object.entries(opts.services).filter(([name]) => name !== 'gateway');
  // Bodies stay unread: they stream on to the services, which read (and limit) them.
  const app = createHttpApp({
    logger: opts.logger,
    metrics: opts.metrics,
    corsOrigins: opts.corsOrigins,
    readBodies: false,
    rateLimits: opts.rateLimits,
  });

  // The gateway is healthy when every service answers healthy; each one's own dependencies are listed.
  app.get(
    '/api/health',
    healthHandler('gateway', 'distributed', () =>
      Promise.all(
        services.map(async ([name, base]): Promise<HealthOfDependency> => {
          try {
            const r = await fetch(new URL('/api/health', base), { signal: AbortSignal.timeout(2500) });
            const body = (await r.json()) as { dependencies?: unknown };
            return { name, ok: r.ok, adapter: base.origin, dependencies: body.dependencies };
          } catch (err) {
            return { name, ok: false, adapter: base.origin, detail: (err as Error).message };
          }
        }),
      ),
    ),
  );
  // Admins (the accounts service says who is one: it knows whether the user still exists) or Prometheus
  // with the METRICS_TOKEN bearer.
  const metricsAccess = requireMetricsAccess({
    metricsToken: opts.metricsToken,
    roleOf: async (_req, bearer) => {
      const accounts = opts.services.accounts;
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
  app.get('/metrics', metricsAccess, metricsHandler(opts.metrics));

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
      await body.send(req, res);
    });
    // A write through this gateway drops its copy once answered, so the writer's next read is fresh
    // (other gateways hear of it by pub/sub).
    app.use(['/api/products', '/api/payment'], (req, res, next) => {
      if (req.method !== 'GET') res.once('finish', () => list.dropLocalCopy());
      next();
    });
  }

  const flags = opts.soldOutFlags;
  if (flags) {
    // A stock or product edit through this gateway: no flag from before it refuses a create-order after its
    // answer (the catalog clears the flag by pub/sub too, for every gateway).
    app.use('/api/products', (req, res, next) => {
      if (req.method === 'GET' || req.method === 'HEAD') return next();
      flags.dropAll();
      res.once('finish', () => flags.dropAll());
      next();
    });
  }

  const forwarder = serviceForwarder({ services: opts.services, logger: opts.logger });
  app.use(forwarder.handler);
  // /internal/* (service-to-service) is never forwarded from the public port.
  app.use(['/api', '/internal'], apiNotFound);
  serveWebApp(app);
  app.use(errorHandler(opts.logger));
  return Object.assign(app, { upgrade: forwarder.upgrade });
}
