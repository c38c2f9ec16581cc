import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsUserDirectory } from '@shop/accounts';
import { createCatalogService, InventoryHttpClient } from '@shop/catalog';
import type { AuthUser } from '@shop/shared/auth/tokens';
import { loadConfig } from '@shop/shared/config/config';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { freePort } from '@shop/shared/db/free-port';
import { buildServiceApp, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { startProcess, type Proc } from '../../../scripts/distributed-processes.ts';
import { httpClient } from '@shop/test-support/http';
import { loopbackServers } from '@shop/test-support/loopback-servers';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { createProxyGateway } from './proxy.ts';

/** Issue 15, defect 7: production safety. */

const METRICS_TOKEN = 'prometheus-scrape-token-0123456789';
const servers = loopbackServers();
const procs: Proc[] = [];
let shop: TestShop;
let admin: string;
let shopper: { id: string; token: string };
let productId: string;

/** A catalog "process" as `services/catalog/src/main.ts` runs it, on the shop's database, running no consumers. */
let catalogProcess: { url: string; infra: Infrastructure; stop(): Promise<void> };
/** The distributed gateway in front of the shop (as accounts) and the catalog process. */
let gatewayUrl: string;

const serve = async (app: Parameters<typeof servers.serve>[0]) => (await servers.serve(app)).url;

beforeAll(async () => {
  shop = await startTestShop({ env: { METRICS_TOKEN } });
  admin = await shop.login();
  const reg = await shop.api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
    body: { name: 'Farah', email: 'farah@example.in', phone: '+919800000007', password: 'secret1' },
  });
  shopper = { id: reg.body.user.id, token: reg.body.token };
  const product = await shop.api<{ id: string }>('POST', '/api/products', {
    token: admin,
    body: { name: 'Khadi Jacket', price: 2999, quantity: 5 },
  });
  productId = product.body.id;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-process-'));
  const config = loadConfig({
    DATABASE_URL: shop.db.url,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough',
    METRICS_TOKEN,
  });
  const infra = await createInfrastructure(config, 'catalog');
  // Its own process checks tokens' users with the accounts service; here, the shop's users directly.
  infra.context.users.bind(accountsUserDirectory(infra.pool));
  const catalog = createCatalogService(infra.context, { seed: false, internalRoutes: true });
  const app = buildServiceApp(infra, [catalog], { service: 'catalog' });
  const running = await startModules(infra, [{ ...catalog, consumers: [] }], []);
  catalogProcess = {
    url: await serve(app),
    infra,
    async stop() {
      await running.stop();
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };

  gatewayUrl = await serve(
    createProxyGateway({
      services: { accounts: new URL(shop.url), catalog: new URL(catalogProcess.url) },
      logger: createLogger('gateway', 'silent'),
      metrics: new Metrics('gateway'),
      metricsToken: METRICS_TOKEN,
    }),
  );
});
afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await servers.closeAll();
  await catalogProcess?.stop();
  await shop?.stop();
});

const sign = (user: Partial<AuthUser> & { id: string }) =>
  shop.infra.context.tokens.sign({ email: 'x@example.in', name: 'X', isAdmin: false, ...user });

const exited = (p: Proc) =>
  new Promise<number | null>((resolve) => {
    if (p.child.exitCode !== null) return resolve(p.child.exitCode);
    p.child.once('exit', (code) => resolve(code));
  });

describe('JWT_SECRET (issue 15, defect 7: the default JWT_SECRET is accepted silently)', () => {
  it('NODE_ENV=production without a strong JWT_SECRET: the shop process refuses to start (exit 2) naming JWT_SECRET', async () => {
    const p = startProcess('shop', 'services/gateway/src/main.ts', {
      NODE_ENV: 'production',
      JWT_SECRET: undefined,
      PORT: '0',
      LOG_LEVEL: 'info',
      SERVICE_URLS: undefined,
      // Were the secret accepted, start-up would fail on this database instead, not exit 2 naming JWT_SECRET.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      DATA_DIR: os.tmpdir(),
    });
    procs.push(p);
    expect(await exited(p)).toBe(2);
    expect(p.output.join('\n')).toMatch(/JWT_SECRET: unset, so it is the development default/);
  });

  it('in development a service process starts with the default JWT_SECRET and logs one loud warning line', async () => {
    const db: TestDatabase = await createTestDatabase({ migrate: false });
    try {
      const p = startProcess('accounts', 'services/accounts/src/main.ts', {
        NODE_ENV: 'development',
        JWT_SECRET: undefined,
        DATABASE_URL: db.url,
        REDIS_URL: undefined,
        KAFKA_BROKERS: undefined,
        SERVICE_URLS: undefined,
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      });
      procs.push(p);
      await waitUntil(
        () => p.child.exitCode !== null || p.output.some((l) => l.includes('accounts service listening')),
        'the accounts process to listen',
        60_000,
      );
      p.child.kill('SIGTERM');
      await exited(p);
      const warnings = p.output.filter((l) => l.includes('INSECURE JWT_SECRET'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, service: 'accounts' });
    } finally {
      await db.drop();
    }
  });
});

describe('payments in production (issue 27 item 6: production without Razorpay keys ran the free sandbox)', () => {
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: 'k3Jq8vXz0pLr5TgW2nYb7HcM4sDe9FaU1iO6',
    ADMIN_PASSWORD: 'Tq9-own-admin-password',
    RAZORPAY_KEY_ID: undefined,
    RAZORPAY_KEY_SECRET: undefined,
    RAZORPAY_API_URL: undefined,
    SERVICE_URLS: undefined,
    LOG_LEVEL: 'info',
    // Shipping and mail on their sandboxes by name: payments are what these tests are about.
    SHIPROCKET_SANDBOX: 'true',
    MAIL_SANDBOX: 'true',
  };

  it('without RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET the shop process refuses to start (exit 2) naming them and RAZORPAY_SANDBOX', async () => {
    const p = startProcess('shop', 'services/gateway/src/main.ts', {
      ...production,
      RAZORPAY_SANDBOX: undefined,
      PORT: '0',
      // Were the configuration accepted, start-up would fail on this database instead, not exit 2.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      DATA_DIR: os.tmpdir(),
    });
    procs.push(p);
    expect(await exited(p)).toBe(2);
    const output = p.output.join('\n');
    expect(output).toMatch(
      /RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: unset, so payments would go through the built-in sandbox/,
    );
    expect(output).toMatch(/RAZORPAY_SANDBOX=true/);
    expect(output).not.toMatch(/JWT_SECRET:/);
  });

  it('with RAZORPAY_SANDBOX=true production starts and says the sandbox takes the payments', async () => {
    const db: TestDatabase = await createTestDatabase({ migrate: false });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'production-sandbox-'));
    try {
      const p = startProcess('shop', 'services/gateway/src/main.ts', {
        ...production,
        RAZORPAY_SANDBOX: 'true',
        DATABASE_URL: db.url,
        REDIS_URL: undefined,
        KAFKA_BROKERS: undefined,
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
      });
      procs.push(p);
      await waitUntil(
        () => p.child.exitCode !== null || p.output.some((l) => l.includes('Payments: built-in Razorpay sandbox')),
        'the shop to start with the sandbox',
        90_000,
      );
      expect(p.child.exitCode, p.output.join('\n')).toBeNull();
      p.child.kill('SIGTERM');
      await exited(p);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });
});

describe('/internal/inventory/* (issue 15, defect 7: internal routes on the public port)', () => {
  it('all-in-one process: /internal/inventory/* is not served (404), even to a valid service token', async () => {
    const service = sign({ id: 'service:checkout', name: 'checkout' });
    for (const action of ['reserve', 'release', 'commit']) {
      for (const token of [undefined, service, admin]) {
        const r = await shop.api<{ message: string }>('POST', `/internal/inventory/${action}`, {
          token,
          body: { reservationId: 'r1', lines: [{ productId, size: null, color: null, quantity: 1 }] },
        });
        expect(r.status, `${action} with ${token ? 'a token' : 'no token'}`).toBe(404);
        expect(r.body.message).toMatch(/^No route for POST \/internal\/inventory/);
      }
    }
    // The stock is untouched.
    const p = await shop.api<{ quantity: number }>('GET', `/api/products/${productId}`);
    expect(p.body.quantity).toBe(5);
  });

  it('distributed: the catalog service process serves /internal/inventory/* to service tokens only', async () => {
    const api = httpClient(catalogProcess.url);
    const body = { reservationId: 'r1', lines: [{ productId, size: null, color: null, quantity: 1 }] };
    expect((await api('POST', '/internal/inventory/reserve', { body })).status).toBe(401);
    expect((await api('POST', '/internal/inventory/reserve', { token: shopper.token, body })).status).toBe(403);
    expect((await api('POST', '/internal/inventory/reserve', { token: admin, body })).status).toBe(403);
    const client = new InventoryHttpClient(catalogProcess.url, sign({ id: 'service:checkout', name: 'checkout' }));
    const reservationId = `r-${randomUUID()}`;
    const held = await client.reserve(reservationId, body.lines);
    expect(held.ok).toBe(true);
    await client.release(reservationId);
  });

  it('distributed: the gateway never forwards /internal/* (404)', async () => {
    const r = await httpClient(gatewayUrl)<{ message: string }>('POST', '/internal/inventory/reserve', {
      token: sign({ id: 'service:checkout', name: 'checkout' }),
      body: { reservationId: 'r2', lines: [] },
    });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^No route for POST \/internal\/inventory\/reserve/);
  });
});

describe('/metrics (issue 15, defect 7: metrics are public)', () => {
  const checks = async (base: string) => {
    const get = (token?: string) =>
      fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const anonymous = await get();
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { message: string }).message).toMatch(/METRICS_TOKEN/);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await get('not-the-metrics-token-at-all')).status).toBe(401);
    expect((await get(shopper.token)).status).toBe(403);
    const asAdmin = await get(admin);
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toMatch(/^# HELP /m);
    const prometheus = await get(METRICS_TOKEN);
    expect(prometheus.status).toBe(200);
    expect(prometheus.headers.get('content-type')).toMatch(/^text\/plain/);
    // An admin claim in a token whose user is gone is not an admin.
    expect((await get(sign({ id: randomUUID(), isAdmin: true }))).status).toBe(401);
  };

  it('all-in-one: 401 without credentials, 403 for a shopper, 200 for an admin or the METRICS_TOKEN bearer', async () => {
    await checks(shop.url);
  });

  it('distributed service process: the same rule', async () => {
    await checks(catalogProcess.url);
  });

  it('distributed gateway: the same rule (the accounts service says who is an admin)', async () => {
    await checks(gatewayUrl);
  });
});

describe('tokens of deleted or unknown users (issue 15, defect 7)', () => {
  it('a well-signed token of a user who never existed gets 401 on user routes', async () => {
    const ghost = sign({ id: randomUUID(), email: 'ghost@example.in' });
    for (const p of ['/api/auth/me', '/api/orders', '/api/addresses']) {
      const r = await shop.api<{ message: string }>('GET', p, { token: ghost });
      expect(r.status, p).toBe(401);
    }
  });

  it('a well-signed admin token of an unknown user gets 401 on admin routes', async () => {
    const forged = sign({ id: randomUUID(), email: 'root@example.in', isAdmin: true });
    expect((await shop.api('GET', '/api/auth/admin/users', { token: forged })).status).toBe(401);
    expect((await shop.api('GET', '/api/orders/admin/all', { token: forged })).status).toBe(401);
    expect((await shop.api('GET', '/api/coupons', { token: forged })).status).toBe(401);
  });

  it("admin rights come from the accounts projection: a shopper's token claiming isAdmin gets 403", async () => {
    const claimed = sign({ id: shopper.id, isAdmin: true });
    expect((await shop.api('GET', '/api/auth/admin/users', { token: claimed })).status).toBe(403);
  });

  it('service tokens: a known service is never an admin; an unknown service subject is refused (401)', async () => {
    const checkout = sign({ id: 'service:checkout', isAdmin: true });
    expect((await shop.api('GET', '/api/auth/admin/users', { token: checkout })).status).toBe(403);
    const unknown = sign({ id: 'service:mallory', isAdmin: true });
    expect((await shop.api('GET', '/api/auth/admin/users', { token: unknown })).status).toBe(401);
  });

  it("a deleted user's token stops working (401) in every process: the all-in-one and a service process", async () => {
    const reg = await shop.api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
      body: { name: 'Gone Soon', email: 'gone@example.in', phone: '+919800000008', password: 'secret1' },
    });
    const token = reg.body.token;
    expect((await shop.api('GET', '/api/auth/me', { token })).status).toBe(200);
    const catalogApi = httpClient(catalogProcess.url);
    // A shopper on an admin route of the catalog process: 403 while the user exists.
    expect((await catalogApi('DELETE', `/api/products/${productId}`, { token })).status).toBe(403);

    // No event deletes accounts yet; the projection row going away is what deletion looks like to tokens.
    await shop.db.pool.query('DELETE FROM accounts.users WHERE id = $1', [reg.body.user.id]);

    await waitUntil(
      async () => (await shop.api('GET', '/api/auth/me', { token })).status === 401,
      'the all-in-one process to refuse the deleted user',
    );
    await waitUntil(
      async () => (await catalogApi('DELETE', `/api/products/${productId}`, { token })).status === 401,
      'the catalog process to refuse the deleted user',
    );
  });

  it("a service process refuses an unknown user's admin token (401) and accepts a real admin's", async () => {
    const catalogApi = httpClient(catalogProcess.url);
    const forged = sign({ id: randomUUID(), isAdmin: true });
    const body = { isDelisted: false };
    expect((await catalogApi('PUT', `/api/products/${productId}/delist`, { token: forged, body })).status).toBe(401);
    // The real admin passes the guard (the catalog process runs no projections here, so it is not
    // asked to write: an unknown product id answers 404 after the guard).
    expect((await catalogApi('PUT', '/api/products/no-such-product/delist', { token: admin, body })).status).toBe(404);
  });
});
