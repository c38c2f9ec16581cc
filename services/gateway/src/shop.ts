import type { Server } from 'node:http';
import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import type { Config } from '@shop/shared/config/config';
import { buildServiceApp, listen, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, SERVICE_SCHEMAS, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { serveWebApp } from './web.ts';

export interface RunningShop {
  url: string;
  port: number;
  infra: Infrastructure;
  server: Server;
  webServed: boolean;
  close(): Promise<void>;
}

/**
 * One process hosting the gateway and every service (the embedded default, and any adapter mix the
 * configuration selects). The domain code and HTTP handlers are the ones the separate processes run.
 */
export async function startShop(config: Config, opts: { host?: string; seed?: boolean } = {}): Promise<RunningShop> {
  const infra = await createInfrastructure(config, 'shop');
  const modules = [createAccountsService(infra.context), createCatalogService(infra.context, { seed: opts.seed })];
  let webServed = false;
  const app = buildServiceApp(infra, modules, {
    service: 'shop',
    after: (a) => {
      webServed = serveWebApp(a);
    },
  });
  const running = await startModules(infra, modules, SERVICE_SCHEMAS);
  const { server, port } = await listen(app, config.PORT, opts.host);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    infra,
    server,
    webServed,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await running.stop();
      await infra.close();
    },
  };
}
