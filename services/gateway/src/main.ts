import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ConfigError, DEV_ADMIN_PASSWORD, loadConfig, type Config } from '@shop/shared/config/config';
import { listenWhileStarting } from '@shop/shared/http/starting';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { gateRequests, SHUTDOWN_LINGER_MS } from '@shop/shared/runtime/graceful-shutdown';
import { handleProcessSignals } from '@shop/shared/runtime/host';
import { rateLimitNamespace, warnIfWeakJwtSecret } from '@shop/shared/runtime/infrastructure';
import { createOrderRules, paymentSettings, SANDBOX_PATH } from '@shop/checkout';
import { createRazorpaySandbox } from '@shop/razorpay-sandbox';
import { shippingSettings, SHIPROCKET_SANDBOX_PATH } from '@shop/order';
import { createShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { ProductListCache, SoldOutFlags } from '@shop/catalog';
import { GuestIdentity } from '@shop/shared/auth/guest-identity';
import { RateLimitStore } from '@shop/shared/http/rate-limit';
import { parseCorsOrigins } from '@shop/shared/http/security';
import { createCache, createPubSub } from '@shop/shared/cache/index';
import { migrate } from '@shop/shared/db/migrate';
import { createPool } from '@shop/shared/db/pool';
import { createProxyGateway } from './proxy.ts';
import { rawCreateOrder } from './raw-create-order.ts';
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
  // Likewise the Shiprocket sandbox without Shiprocket credentials (schema shiprocket_sandbox); its tracking
  // webhooks go to the order service through this gateway, as Shiprocket's would.
  const shipping = shippingSettings(config, url);
  if ((payments.sandbox || shipping.sandbox) && !config.DATABASE_URL) {
    console.error(
      'The gateway hosts the Razorpay and Shiprocket sandboxes, which keep their data in Postgres: set DATABASE_URL',
    );
    process.exit(2);
  }
  const sandboxPool =
    (payments.sandbox || shipping.sandbox) && config.DATABASE_URL ? createPool(config.DATABASE_URL, 4) : undefined;
  if (sandboxPool) await migrate(sandboxPool);
  const shiprocket =
    shipping.sandbox && sandboxPool
      ? createShiprocketSandbox({
          email: shipping.email,
          password: shipping.password,
          pool: sandboxPool,
          basePath: SHIPROCKET_SANDBOX_PATH,
          webhookToken: shipping.webhookToken ?? undefined,
          webhookUrl: `${url}/api/orders/tracking-webhook`,
          logger,
        })
      : undefined;
  const sandbox =
    payments.sandbox && sandboxPool
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
  // With Redis and the shop's database, it answers a sold-out create-order itself (raw-create-order.ts) from
  // the sold-out flags the catalog service publishes, counting the route's limits where checkout counts them.
  let soldOut: { flags: SoldOutFlags; rateLimits: RateLimitStore } | undefined;
  if (config.REDIS_URL) {
    const cacheOpts = { redisUrl: config.REDIS_URL, prefix: 'shop:', logger };
    const pubsub = createPubSub(cacheOpts);
    productList = new ProductListCache(null, createCache(cacheOpts), pubsub);
    await productList.start();
    if (config.DATABASE_URL) {
      soldOut = {
        flags: new SoldOutFlags(pubsub),
        rateLimits: new RateLimitStore({
          redis: config.REDIS_URL,
          namespace: rateLimitNamespace(config.DATABASE_URL),
          logger,
        }),
      };
      await soldOut.flags.start();
    }
  }
  const metrics = new Metrics('gateway');
  const app = createProxyGateway({
    services: config.SERVICE_URLS,
    logger,
    metrics,
    rateLimits: soldOut?.rateLimits,
    soldOutFlags: soldOut?.flags,
    metricsToken: config.METRICS_TOKEN,
    corsOrigins: config.CORS_ORIGINS,
    productList,
    mount: (a) => {
      if (sandbox) a.use(SANDBOX_PATH, sandbox.router);
      if (shiprocket) a.use(SHIPROCKET_SANDBOX_PATH, shiprocket.router);
    },
  });
  const { port, server } = listening;
  const gate = gateRequests(server, {
    service: 'gateway',
    passThrough: (req) =>
      (!!sandbox && (req.url ?? '').startsWith(`${SANDBOX_PATH}/`)) ||
      (!!shiprocket && (req.url ?? '').startsWith(`${SHIPROCKET_SANDBOX_PATH}/`)),
    logger,
  });
  listening.ready(
    soldOut
      ? rawCreateOrder({
          app,
          rules: createOrderRules(config),
          refusalFromMemory: (lines) => soldOut.flags.refusalFromMemory(lines),
          guestIdentity: new GuestIdentity(config.JWT_SECRET),
          logger,
          metrics,
          corsOrigins: parseCorsOrigins(config.CORS_ORIGINS),
          asProxied: true,
        })
      : app,
  );
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
    await soldOut?.flags.stop();
    await soldOut?.rateLimits.close();
    await sandbox?.close();
    await shiprocket?.close();
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
      `  Shipping: ${shop.shippingSandbox ? `built-in Shiprocket sandbox at ${shop.url}${SHIPROCKET_SANDBOX_PATH} (no SHIPROCKET_EMAIL set)` : 'Shiprocket'}`,
      `  E-mail: ${config.SMTP_URL ? `SMTP (${new URL(config.SMTP_URL).host})` : `built-in mail sandbox, read at ${shop.url}/admin/mail (no SMTP_URL set)`}`,
      `  Adapters: postgres=${m.db}${m.db === 'embedded' ? ` (data in ${config.DATA_DIR})` : ''}, cache=${m.cache}, bus=${m.bus}`,
      shop.webServed ? '' : '  Web app not built: run `npm run build:web` (npm start does this).',
      '',
    ].join('\n'),
  );
}
