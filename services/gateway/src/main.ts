import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ConfigError, DEV_ADMIN_PASSWORD, loadConfig, type Config } from '@shop/shared/config/config';
import { listenWhileStarting } from '@shop/shared/http/starting';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { gateRequests, SHUTDOWN_LINGER_MS } from '@shop/shared/runtime/graceful-shutdown';
import { handleProcessSignals } from '@shop/shared/runtime/host';
import { warnIfWeakJwtSecret } from '@shop/shared/runtime/infrastructure';
import { paymentSettings, SANDBOX_PATH } from '@shop/checkout';
import { createRazorpaySandbox } from '@shop/razorpay-sandbox';
import { ProductListCache } from '@shop/catalog';
import { createCache, createPubSub } from '@shop/shared/cache/index';
import { migrate } from '@shop/shared/db/migrate';
import { createPool } from '@shop/shared/db/pool';
import { createProxyGateway } from './proxy.ts';
import { startShop } from './shop.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

const config = readConfig();

const SHUTTING_DOWN_UPGRADE =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 27\r\n\r\n{"message":"Shutting down"}';

if (config.SERVICE_URLS) {
  // Distributed: this process only routes to the service processes.
  const logger = createLogger('gateway', config.LOG_LEVEL);
  warnIfWeakJwtSecret(config, logger);
  // Listen at once, answering 503 "Starting" until the app below is ready.
  const listening = await listenWhileStarting(config.PORT, '0.0.0.0', 'gateway');
  const url = `http://127.0.0.1:${config.PORT}`;
  const payments = paymentSettings(config, url);
  // Without Razorpay keys the gateway hosts the sandbox, as in the embedded default. It keeps its orders
  // and payments in Postgres (schema razorpay_sandbox), so a restarted gateway still knows them.
  if (payments.sandbox && !config.DATABASE_URL) {
    console.error('The gateway hosts the Razorpay sandbox, which keeps its orders in Postgres: set DATABASE_URL');
    process.exit(2);
  }
  const sandboxPool = payments.sandbox && config.DATABASE_URL ? createPool(config.DATABASE_URL, 4) : undefined;
  if (sandboxPool) await migrate(sandboxPool);
  const sandbox = sandboxPool
    ? createRazorpaySandbox({
        keyId: payments.keyId,
        keySecret: payments.keySecret,
        pool: sandboxPool,
        webhookSecret: payments.webhookSecret ?? undefined,
        webhookUrl: `${url}/api/payment/webhook`,
        basePath: SANDBOX_PATH,
        logger,
        // No payment once the gateway is draining (the gate below): the shop cannot take it any more.
        acceptsPayments: () => !gate.draining,
      })
    : undefined;
  // With Redis, the gateway reads the hot product list the catalog service keeps there.
  let productList: ProductListCache | undefined;
  if (config.REDIS_URL) {
    const cacheOpts = { redisUrl: config.REDIS_URL, prefix: 'shop:', logger };
    productList = new ProductListCache(null, createCache(cacheOpts), createPubSub(cacheOpts));
    await productList.start();
  }
  const app = createProxyGateway({
    services: config.SERVICE_URLS,
    logger,
    metrics: new Metrics('gateway'),
    metricsToken: config.METRICS_TOKEN,
    corsOrigins: config.CORS_ORIGINS,
    productList,
    mount: (a) => {
      if (sandbox) a.use(SANDBOX_PATH, sandbox.router);
    },
  });
  const { port, server } = listening;
  const gate = gateRequests(server, {
    service: 'gateway',
    passThrough: sandbox ? (req) => (req.url ?? '').startsWith(`${SANDBOX_PATH}/`) : undefined,
    logger,
  });
  listening.ready(app);
  // Connection upgrades under a service's paths go to it (none while shutting down).
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (gate.draining) return void socket.end(SHUTTING_DOWN_UPGRADE);
    app.upgrade(req, socket, head);
  });
  logger.info({ port, paymentSandbox: payments.sandbox }, 'gateway listening');
  console.log(
    `Gateway (distributed) on http://127.0.0.1:${port}${payments.sandbox ? ' (payments: built-in Razorpay sandbox)' : ''}`,
  );
  // New requests are told "Shutting down", proxied push streams end, requests in flight finish (bounded).
  handleProcessSignals({ logger }, async () => {
    await gate.drain({ lingerMs: SHUTDOWN_LINGER_MS });
    await productList?.stop();
    await sandbox?.close();
    await sandboxPool?.end();
  });
} else {
  const shop = await startShop(config);
  handleProcessSignals(shop.infra, () => shop.close({ lingerMs: SHUTDOWN_LINGER_MS }));
  const m = config.mode;
  console.log(
    [
      '',
      `  Kapda shop is running at ${shop.url}`,
      `  Admin login: ${config.ADMIN_EMAIL} / ${config.ADMIN_PASSWORD === DEV_ADMIN_PASSWORD ? `${DEV_ADMIN_PASSWORD} (default: set ADMIN_PASSWORD)` : '(ADMIN_PASSWORD)'}`,
      `  Payments: ${shop.paymentSandbox ? `built-in Razorpay sandbox at ${shop.url}/razorpay-sandbox (no RAZORPAY_KEY_ID set)` : 'Razorpay'}`,
      `  Adapters: postgres=${m.db}${m.db === 'embedded' ? ` (data in ${config.DATA_DIR})` : ''}, cache=${m.cache}, bus=${m.bus}`,
      shop.webServed ? '' : '  Web app not built: run `npm run build:web` (npm start does this).',
      '',
    ].join('\n'),
  );
}
