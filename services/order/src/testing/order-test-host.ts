import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { createAccountsService } from '@shop/accounts';
import { RedisPubSub } from '@shop/shared/cache/index';
import type { PubSub } from '@shop/shared/cache/types';
import { loadConfig } from '@shop/shared/config/config';
import { buildServiceApp, listen, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { createOrderService, type OrderService } from '../index.ts';
import type { OrderPushOptions } from '../push/order-push-hub.ts';

export const ADMIN = { email: 'admin@orders.test', password: 'admin-pass-123' };

export interface OrderTestHost {
  url: string;
  ctx: ServiceContext;
  infra: Infrastructure;
  order: OrderService;
  api: ReturnType<typeof httpClient>;
  /** Logs in (the configured admin by default) and returns the token. */
  login(email?: string, password?: string): Promise<string>;
  /** Registers a shopper and returns their id and token. */
  register(name: string, email: string): Promise<{ userId: string; token: string }>;
  close(): Promise<void>;
}

/**
 * One "process" hosting the order and accounts services over HTTP on `databaseUrl`, the way runService and
 * the gateway do (createInfrastructure, buildServiceApp, startModules). With `redis`, pub/sub goes through
 * Redis under a prefix of the test's own, so hosts given the same prefix fan out to each other as separate
 * processes do, and other test files sharing the Redis server are not heard.
 */
export async function startOrderTestHost(opts: {
  databaseUrl: string;
  redis?: { url: string; prefix: string };
  push?: OrderPushOptions;
  /** false: run no consumers here (as a process whose Kafka partitions went to another), only HTTP and push. */
  consumers?: boolean;
  /** The services' clock (the real one unless given), e.g. to put "today" where a test needs it. */
  clock?: () => Date;
  /** Serve /internal/orders/* as the order service's own process does. */
  internalRoutes?: boolean;
}): Promise<OrderTestHost> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'order-test-'));
  const config = loadConfig({
    DATABASE_URL: opts.databaseUrl,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'test-secret-that-is-long-enough',
  });
  const infra = await createInfrastructure(config, 'order-test');
  let pubsub: PubSub | undefined;
  if (opts.redis) pubsub = new RedisPubSub({ connection: opts.redis.url, prefix: opts.redis.prefix });
  const ctx: ServiceContext = {
    ...infra.context,
    ...(pubsub ? { pubsub } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  };
  const order = createOrderService(ctx, { push: opts.push, internalRoutes: opts.internalRoutes });
  const modules = [createAccountsService(ctx), order];
  const app = buildServiceApp(infra, modules, { service: 'order' });
  const hosted = opts.consumers === false ? modules.map((m) => ({ ...m, consumers: [] })) : modules;
  const running = await startModules(infra, hosted, []);
  const { server, port } = await listen(app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const api = httpClient(url);
  const login = async (email = ADMIN.email, password = ADMIN.password) => {
    const r = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token;
  };
  // accounts' start() records the admin; the users projection makes it a login shortly after.
  await waitUntil(
    async () => (await api('POST', '/api/auth/login', { body: ADMIN })).status === 200,
    'the admin account to be readable',
  );
  return {
    url,
    ctx,
    infra,
    order,
    api,
    login,
    async register(name, email) {
      const r = await api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
        body: { name, email, phone: '+919800000000', password: 'secret1' },
      });
      if (r.status !== 201) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
      return { userId: r.body.user.id, token: r.body.token };
    },
    async close() {
      await running.stop(); // ends the push streams, so the server can close
      await closeServer(server);
      await pubsub?.close();
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
