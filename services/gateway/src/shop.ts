import type { Server } from 'node:http';
import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import { createCheckoutService, SANDBOX_PATH } from '@shop/checkout';
import { createRazorpaySandbox } from '@shop/razorpay-sandbox';
import { createOrderService, inProcessOrderPlacement } from '@shop/order';
import type { Config } from '@shop/shared/config/config';
import { listenWhileStarting, type StartingServer } from '@shop/shared/http/starting';
import { gateRequests } from '@shop/shared/runtime/graceful-shutdown';
import { buildServiceApp, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, SERVICE_SCHEMAS, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { apiDocsRouter } from './api-docs.ts';
import { serveWebApp } from './web.ts';

export interface RunningShop {
  url: string;
  port: number;
  infra: Infrastructure;
  server: Server;
  webServed: boolean;
  /** true when the built-in Razorpay sandbox stands in for Razorpay. */
  paymentSandbox: boolean;
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
  const catalog = createCatalogService(ctx, { seed: opts.seed });
  const checkout = createCheckoutService(ctx, {
    inventory: catalog.inventory,
    gatewayUrl: url,
    waitForOrder: (payment, timeoutMs) => inProcessOrderPlacement(ctx).orderOfPayment(payment, timeoutMs),
  });
  // The demo data seeds as the catalog does: unless told not to.
  const accounts = createAccountsService(ctx, { seed: opts.seed !== false });
  const order = createOrderService(ctx, { history: { catalog: catalog.history, checkout: checkout.history } });
  const modules = [accounts, catalog, checkout, order];
  const sandbox = checkout.settings.sandbox
    ? createRazorpaySandbox({
        keyId: checkout.settings.keyId,
        keySecret: checkout.settings.keySecret,
        pool: infra.pool,
        webhookSecret: checkout.settings.webhookSecret ?? undefined,
        webhookUrl: `${url}/api/payment/webhook`,
        basePath: SANDBOX_PATH,
        logger: infra.logger,
        // No payment once the shop is draining (the gate below): verify and the webhook answer 503 by then.
        acceptsPayments: () => !gate.draining,
      })
    : undefined;
  let webServed = false;
  const app = buildServiceApp(infra, modules, {
    service: 'shop',
    before: (a) => {
      if (sandbox) a.use(SANDBOX_PATH, sandbox.router);
      a.use(apiDocsRouter()); // GET /api/openapi.json, /api/docs
    },
    after: (a) => {
      webServed = serveWebApp(a);
    },
  });
  const running = await startModules(infra, modules, SERVICE_SCHEMAS);
  // A create-order in flight calls the sandbox over HTTP (it stands in for Razorpay's servers): it is still
  // served while the shop drains.
  const gate = gateRequests(server, {
    service: 'shop',
    passThrough: sandbox ? (req) => (req.url ?? '').startsWith(`${SANDBOX_PATH}/`) : undefined,
    logger: infra.logger,
  });
  listening.ready(app);
  return {
    url,
    port,
    infra,
    server,
    webServed,
    paymentSandbox: checkout.settings.sandbox,
    async close({ lingerMs = 0 }: { lingerMs?: number } = {}) {
      // New requests are told "Shutting down"; push streams end; requests in flight finish (bounded), with
      // the consumers they may wait on (read-your-writes) still running. Then everything else stops.
      await gate.drain({ lingerMs, endStreams: () => running.drain() });
      await running.stop();
      await sandbox?.close();
      await infra.close();
    },
  };
}
