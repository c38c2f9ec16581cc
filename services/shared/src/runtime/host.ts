import type { Server } from 'node:http';
import type { Express, RequestHandler } from 'express';
import { GuestIdentity } from '../auth/guest-identity.ts';
import { apiNotFound, createHttpApp, errorHandler } from '../http/app.ts';
import { LISTEN_BACKLOG } from '../http/starting.ts';
import { requireMetricsAccess } from '../observability/metrics-access.ts';
import { refreshParkedGauge } from '../bus/parked-gauge.ts';
import type { Subscription } from '../bus/types.ts';
import { takeOverShutdownSignals } from '../db/embedded-postgres.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { SHUTDOWN_GRACE_MS } from './graceful-shutdown.ts';
import type { Infrastructure } from './infrastructure.ts';
import type { ServiceModule } from './service.ts';

/** One dependency in a /api/health answer. */
export interface HealthOfDependency {
  name: string;
  ok: boolean;
  adapter: string;
  detail?: string;
  /** A service's own dependencies, as the distributed gateway reports them. */
  dependencies?: unknown;
}

/**
 * /api/health: liveness and readiness of each dependency (200 when all are up, else 503), as
 * `{ status, service, mode, dependencies }`.
 */
export function healthHandler(
  service: string,
  mode: unknown,
  dependencies: () => Promise<HealthOfDependency[]>,
): RequestHandler {
  return async (_req, res) => {
    const deps = await dependencies();
    const ok = deps.every((d) => d.ok);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'degraded', service, mode, dependencies: deps });
  };
}

/** GET /metrics: the registry in Prometheus' text format (`refresh` first updates gauges read on demand). */
export function metricsHandler(metrics: Metrics, refresh?: () => Promise<void>): RequestHandler {
  return async (_req, res) => {
    await refresh?.();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  };
}

/** An express app hosting the given service modules under their own /api paths, with health and metrics. */
export function buildServiceApp(
  infra: Infrastructure,
  modules: ServiceModule[],
  opts: { service: string; before?: (app: Express) => void; after?: (app: Express) => void },
): Express {
  const app = createHttpApp({
    logger: infra.logger,
    metrics: infra.metrics,
    trustProxy: infra.config.TRUST_PROXY,
    corsOrigins: infra.config.CORS_ORIGINS,
    rateLimits: infra.rateLimits,
  });
  app.use(infra.context.tokens.authenticate());
  app.use(new GuestIdentity(infra.config.JWT_SECRET).middleware());
  app.get(
    '/api/health',
    healthHandler(opts.service, infra.config.mode, () => infra.health()),
  );
  // Admins, or Prometheus with the METRICS_TOKEN bearer; req.user is set (and checked) by authenticate().
  const metricsAccess = requireMetricsAccess({
    metricsToken: infra.config.METRICS_TOKEN,
    roleOf: async (req) => (req.user ? (req.user.isAdmin ? 'admin' : 'user') : null),
  });
  // The parked gauge counts parked_events rows not replayed, so a replay from another process shows here.
  const refreshParked = () =>
    refreshParkedGauge(
      infra.pool,
      infra.metrics.parkedEvents,
      modules.flatMap((m) => m.consumers),
    ).catch((err: unknown) => infra.logger.warn({ err }, 'could not refresh the parked events gauge'));
  app.get('/metrics', metricsAccess, metricsHandler(infra.metrics, refreshParked));
  opts.before?.(app);
  for (const m of modules) app.use(m.router);
  // /internal/* answers only where a module mounts it (the catalog and order processes); elsewhere a JSON 404.
  app.use(['/api', '/internal'], apiNotFound);
  opts.after?.(app);
  app.use(errorHandler(infra.logger, infra.metrics));
  return app;
}

/** Subscribes every module's consumers, starts the outbox relays of `relaySchemas`, jobs and modules. */
export async function startModules(
  infra: Infrastructure,
  modules: ServiceModule[],
  relaySchemas: readonly string[],
): Promise<{ drain(): Promise<void>; stop(): Promise<void> }> {
  const subscriptions: Subscription[] = [];
  for (const m of modules) {
    for (const c of m.consumers) {
      const s = infra.bus.subscribe(c);
      await s.start();
      subscriptions.push(s);
    }
  }
  for (const schema of relaySchemas) await infra.bus.startRelay(schema);
  await infra.jobs.start();
  for (const m of modules) await m.start?.();
  return {
    async drain() {
      for (const m of modules)
        await m.drain?.().catch((err: unknown) => infra.logger.warn({ err, module: m.name }, 'module drain'));
    },
    async stop() {
      for (const m of modules)
        await m.stop?.().catch((err: unknown) => infra.logger.warn({ err, module: m.name }, 'module stop'));
      for (const s of subscriptions) await s.stop().catch(() => undefined);
    },
  };
}

/** Listens on port (0 = any free port) on 127.0.0.1 or all interfaces; resolves with the bound port. */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, LISTEN_BACKLOG, (err?: Error) => {
      if (err) return reject(err);
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : port });
    });
    server.keepAliveTimeout = 65_000;
  });
}

/**
 * On SIGTERM/SIGINT runs `shutdown` (stop taking requests, let those in flight finish within
 * SHUTDOWN_GRACE_MS, end push streams, stop consumers, relays and jobs, close the pools) and exits 0; a
 * shutdown that hangs is cut 10 s after that bound (exit 1). Logs and exits on a catastrophic error.
 */
export function handleProcessSignals(infra: { logger: Logger }, shutdown: () => Promise<void>): void {
  let closing = false;
  const stop = async (reason: string, code: number) => {
    if (closing) return;
    closing = true;
    infra.logger.info({ reason }, 'shutting down');
    const force = setTimeout(() => {
      infra.logger.error({ reason }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    let failed = false;
    await shutdown().catch((err: unknown) => {
      failed = true;
      infra.logger.error({ err }, 'shutdown failed');
    });
    infra.logger.info({ reason }, 'shut down');
    process.exit(code || (failed ? 1 : 0));
  };
  // This shutdown stops the embedded Postgres last; the library's own hooks would stop it first.
  takeOverShutdownSignals();
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
  process.on('SIGINT', () => void stop('SIGINT', 0));
  process.on('uncaughtException', (err) => {
    infra.logger.fatal({ err }, 'uncaught exception');
    void stop('uncaughtException', 1);
  });
  process.on('unhandledRejection', (err) => {
    infra.logger.fatal({ err }, 'unhandled rejection');
    void stop('unhandledRejection', 1);
  });
}
