import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import { createAccountsService } from '@shop/accounts';
import type { EventConsumer } from '@shop/shared/bus/types';
import { loadConfig } from '@shop/shared/config/config';
import { buildServiceApp, listen, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';

export const TEST_ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' };

/** What a checkout slice's factory returns, as far as hosting it goes. */
export interface Slice {
  router: Router;
  consumers: EventConsumer[];
}

export interface CheckoutTestHost<S extends Slice> {
  url: string;
  db: TestDatabase;
  infra: Infrastructure;
  /** The slice as its factory built it (application service included). */
  slice: S;
  api: ReturnType<typeof httpClient>;
  /** Logs in (the admin by default) and answers the token. */
  login(email?: string, password?: string): Promise<string>;
  /** Registers a shopper and answers their id and token. */
  signUp(name: string, email: string): Promise<{ userId: string; token: string }>;
  stop(): Promise<void>;
}

/**
 * One checkout slice, hosted with the accounts service (for tokens and the admin) on a fresh database,
 * as a checkout module would be in the shop; Postgres-log bus and in-process cache.
 */
export async function startCheckoutTestHost<S extends Slice>(
  createSlice: (ctx: ServiceContext) => S,
): Promise<CheckoutTestHost<S>> {
  const db = await createTestDatabase({ migrate: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-test-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    JWT_SECRET: 'test-secret-that-is-long-enough',
  });
  const infra = await createInfrastructure(config, 'checkout-test');
  const slice = createSlice(infra.context);
  const checkout: ServiceModule = { name: 'checkout', router: slice.router, consumers: slice.consumers };
  const modules = [createAccountsService(infra.context), checkout];
  const app = buildServiceApp(infra, modules, { service: 'checkout-test' });
  const running = await startModules(infra, modules, []);
  const { server, port } = await listen(app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  // accounts' start() records the admin but does not wait for its read model; logins read that.
  await waitUntil(
    async () =>
      (await infra.pool.query('SELECT 1 FROM accounts.users WHERE email = $1', [TEST_ADMIN.email])).rowCount === 1,
    'the admin account to be readable',
  );
  const api = httpClient(url);

  const login = async (email = TEST_ADMIN.email, password = TEST_ADMIN.password) => {
    const r = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token;
  };
  const signUp = async (name: string, email: string) => {
    const r = await api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
      body: { name, email, phone: '+919800000000', password: 'secret1' },
    });
    if (r.status !== 201) throw new Error(`sign-up failed: ${r.status} ${JSON.stringify(r.body)}`);
    return { userId: r.body.user.id, token: r.body.token };
  };

  return {
    url,
    db,
    infra,
    slice,
    api,
    login,
    signUp,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await running.stop();
      await infra.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
