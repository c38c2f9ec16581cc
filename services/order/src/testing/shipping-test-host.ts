import type { Server } from 'node:http';
import express from 'express';
import { createShiprocketSandbox, httpTrackingTransport, type ShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { createShiprocketProvider } from '../shipping/shiprocket-provider.ts';
import type { ShippingProvider } from '../shipping/shipping-provider.ts';
import { shippingSettings } from '../shipping/shipping-settings.ts';
import { startOrderTestHost, type OrderTestHost } from './order-test-host.ts';

export interface ShippingTestHost {
  db: TestDatabase;
  host: OrderTestHost;
  /** The Shiprocket sandbox, over HTTP on its own port, sending its tracking webhooks to the host. */
  sandbox: ShiprocketSandbox;
  /** The token the host expects in x-api-key on tracking webhooks. */
  webhookToken: string;
  /**
   * AWBs whose tracking webhooks are lost from now on: the sandbox's deliveries of them are refused before they
   * reach the shop (as when its endpoint is down), retried, then given up. Delete an AWB to let them through again.
   */
  lostWebhooks: Set<string>;
  admin: string;
  ravi: { userId: string; token: string };
  stop(): Promise<void>;
}

/**
 * The order service on a fresh database with a Shiprocket adapter talking HTTP to the in-repo sandbox (which
 * sends its webhooks back over HTTP, but those of `lostWebhooks`), an admin and a shopper. `wrap` may put a
 * spec's faults around the real adapter.
 */
export async function startShippingTestHost(
  wrap: (real: ShippingProvider) => ShippingProvider = (real) => real,
): Promise<ShippingTestHost> {
  const db = await createTestDatabase();
  // The sandbox stands in for Shiprocket over HTTP; its router is mounted once the shop's URL is known.
  const app = express();
  const mounted: { router?: express.Router } = {};
  app.use((req, res, next) => (mounted.router ? mounted.router(req, res, next) : res.sendStatus(503)));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const sandboxUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const settings = { email: 'api-user@shop.test', password: 'sandbox-password' };
  const real = createShiprocketProvider({
    apiUrl: `${sandboxUrl}/v1/external`,
    ...settings,
    pickupLocation: 'Primary',
    trackingUrlBase: `${sandboxUrl}/tracking/`,
  });
  const host = await startOrderTestHost({ databaseUrl: db.url, shipping: wrap(real) });
  const webhookToken = shippingSettings(host.ctx.config, '').webhookToken!;
  const lostWebhooks = new Set<string>();
  const toShop = httpTrackingTransport(`${host.url}/api/orders/tracking-webhook`);
  const sandbox = createShiprocketSandbox({
    ...settings,
    pool: db.pool,
    basePath: '',
    webhookToken,
    webhookReceiver: async (delivery) => {
      const { awb } = JSON.parse(delivery.raw) as { awb: string };
      if (lostWebhooks.has(awb)) throw new Error('tracking webhook refused with status 503');
      await toShop(delivery);
    },
    webhookRetry: { attempts: 3, firstRetryDelayMs: 50 },
  });
  mounted.router = sandbox.router;
  return {
    db,
    host,
    sandbox,
    webhookToken,
    lostWebhooks,
    admin: await host.login(),
    ravi: await host.register('Ravi Kumar', 'ravi@example.in'),
    async stop() {
      await sandbox.close();
      await host.close();
      await new Promise((resolve) => server.close(resolve));
      await db.drop();
    },
  };
}
