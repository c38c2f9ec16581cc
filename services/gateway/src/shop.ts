import type { Server } from 'node:http';
import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import {
  createCheckoutService,
  createInProcessSandboxProvider,
  paymentSettings,
  SANDBOX_PATH,
  WebhookNotTakenError,
} from '@shop/checkout';
import { createRazorpaySandbox } from '@shop/razorpay-sandbox';
import { createOrderService, inProcessOrderPlacement, shippingSettings, SHIPROCKET_SANDBOX_PATH } from '@shop/order';
import { createShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { GuestIdentity } from '@shop/shared/auth/guest-identity';
import type { Config } from '@shop/shared/config/config';
import { parseCorsOrigins } from '@shop/shared/http/security';
import { listenWhileStarting, type StartingServer } from '@shop/shared/http/starting';
import { gateRequests } from '@shop/shared/runtime/graceful-shutdown';
import { buildServiceApp, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, SERVICE_SCHEMAS, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { apiDocsRouter } from './api-docs.ts';
import { rawCreateOrder } from './raw-create-order.ts';
import { serveWebApp } from './web.ts';

export interface RunningShop {
  url: string;
  port: number;
  infra: Infrastructure;
  server: Server;
  webServed: boolean;
  /** true when the built-in Razorpay sandbox stands in for Razorpay. */
  paymentSandbox: boolean;
  /** true when the built-in Shiprocket sandbox stands in for Shiprocket. */
  shippingSandbox: boolean;
  /** Graceful stop (see RequestGate.drain); `lingerMs`: keep answering "Shutting down" at least this long. */
  close(opts?: { lingerMs?: number }): Promise<void>;
}

/**
 * One process hosting the gateway and every service (the embedded default, and any adapter mix the
 * configuration selects). The domain code and HTTP handlers are the ones the separate processes run.
 */
export async function startShop(config: Config, opts: { host?: string; seed?: boolean } = {}): Promise<RunningShop> {
  // Bind first: the sandbox and its webhooks need the real port (PORT=0 picks a free one). Until everything
  // is up, every request is answered 503 "Starting" (with Retry-After) rather than left hanging.
  const listening = await listenWhileStarting(config.PORT, opts.host ?? '0.0.0.0', 'shop');
  try {
    return await startOn(config, opts, listening);
  } catch (err) {
    await listening.close();
    throw err;
  }
}

async function startOn(config: Config, opts: { seed?: boolean }, listening: StartingServer): Promise<RunningShop> {
  const { server, port } = listening;
  const url = `http://127.0.0.1:${port}`;
  const infra = await createInfrastructure(config, 'shop');
  const ctx = infra.context;
  // Without Razorpay keys this process hosts the sandbox. Its webhooks go to this shop, so they are handed
  // to the webhook route's handling in process; checkout calls it in process too unless RAZORPAY_API_URL
  // points it at a sandbox elsewhere. (A sandbox in another process, as in distributed mode, is HTTP.)
  const payments = paymentSettings(config, url);
  const sandbox = payments.sandbox
    ? createRazorpaySandbox({
        keyId: payments.keyId,
        keySecret: payments.keySecret,
        pool: infra.pool,
        webhookSecret: payments.webhookSecret ?? undefined,
        webhookReceiver: async (delivery) => {
          // As the gate answers a webhook POST once the shop drains: refused, so the sandbox retries it.
          if (gate.draining) throw new WebhookNotTakenError(503, 'Shutting down');
          await checkout.receiveWebhook(delivery);
        },
        basePath: SANDBOX_PATH,
        logger: infra.logger,
        // No payment once the shop is draining (the gate below): verify and the webhook answer 503 by then.
        acceptsPayments: () => !gate.draining,
      })
    : undefined;
  // Without Shiprocket credentials this process hosts the Shiprocket sandbox too: the order service calls it
  // over HTTP (SHIPROCKET_API_URL, or this shop's /shiprocket-sandbox), and its tracking webhooks are handed to
  // the webhook route's handling in process.
  const shipping = shippingSettings(config, url);
  const shiprocket = shipping.sandbox
    ? createShiprocketSandbox({
        email: shipping.email,
        password: shipping.password,
        pool: infra.pool,
        basePath: SHIPROCKET_SANDBOX_PATH,
        webhookToken: shipping.webhookToken ?? undefined,
        webhookReceiver: async (delivery) => {
          if (gate.draining) throw new Error('Shutting down');
          await order.receiveTrackingWebhook(delivery);
        },
        logger: infra.logger,
      })
    : undefined;
  // This process is the shop's only one: the only writer of its stock streams.
  const catalog = createCatalogService(ctx, { seed: opts.seed, soleStockWriter: true });
  const checkout = createCheckoutService(ctx, {
    inventory: catalog.inventory,
    gatewayUrl: url,
    waitForOrder: (payment, timeoutMs) => inProcessOrderPlacement(ctx).orderOfPayment(payment, timeoutMs),
    allocateOrderNumbers: (count) => inProcessOrderPlacement(ctx).allocateOrderNumbers(count),
    provider:
      sandbox && !config.RAZORPAY_API_URL ? createInProcessSandboxProvider(payments.keyId, sandbox.api) : undefined,
  });
  // The demo data seeds as the catalog does: unless told not to.
  const accounts = createAccountsService(ctx, { seed: opts.seed !== false });
  const order = createOrderService(ctx, {
    history: { catalog: catalog.history, checkout: checkout.history },
    shipping: { gatewayUrl: url },
  });
  const modules = [accounts, catalog, checkout, order];
  let webServed = false;
  const app = buildServiceApp(infra, modules, {
    service: 'shop',
    before: (a) => {
      if (sandbox) a.use(SANDBOX_PATH, sandbox.router);
      if (shiprocket) a.use(SHIPROCKET_SANDBOX_PATH, shiprocket.router);
      a.use(apiDocsRouter()); // GET /api/openapi.json, /api/docs
    },
    after: (a) => {
      webServed = serveWebApp(a);
    },
  });
  const running = await startModules(infra, modules, SERVICE_SCHEMAS);
  // A create-order in flight may call the sandbox over HTTP (RAZORPAY_API_URL, or a shopper's dialog): it is
  // still served while the shop drains.
  const gate = gateRequests(server, {
    service: 'shop',
    passThrough: (req) =>
      (!!sandbox && (req.url ?? '').startsWith(`${SANDBOX_PATH}/`)) ||
      (!!shiprocket && (req.url ?? '').startsWith(`${SHIPROCKET_SANDBOX_PATH}/`)),
    logger: infra.logger,
  });
  // A sold-out create-order is answered before express (raw-create-order.ts); everything else goes to the app.
  listening.ready(
    rawCreateOrder({
      app,
      rules: checkout.createOrder,
      refusalFromMemory: (lines) => catalog.inventory.refusalFromMemory(lines),
      guestIdentity: new GuestIdentity(config.JWT_SECRET),
      logger: infra.logger,
      metrics: infra.metrics,
      corsOrigins: parseCorsOrigins(config.CORS_ORIGINS),
    }),
  );
  return {
    url,
    port,
    infra,
    server,
    webServed,
    paymentSandbox: checkout.settings.sandbox,
    shippingSandbox: shipping.sandbox,
    async close({ lingerMs = 0 }: { lingerMs?: number } = {}) {
      // New requests are told "Shutting down"; push streams end; requests in flight finish (bounded), with
      // the consumers they may wait on (read-your-writes) still running. Then everything else stops.
      await gate.drain({ lingerMs, endStreams: () => running.drain() });
      // Webhooks handed over in process are not requests the gate waits for: they finish (or stop being
      // retried) here, while the services they call still run.
      await sandbox?.close();
      await shiprocket?.close();
      await running.stop();
      await infra.close();
    },
  };
}
