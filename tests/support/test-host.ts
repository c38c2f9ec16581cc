import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { inject } from 'vitest';
import { RedisPubSub } from '@shop/shared/cache/index';
import type { PubSub } from '@shop/shared/cache/types';
import { loadConfig, type Config } from '@shop/shared/config/config';
import { buildServiceApp, listen, startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { httpClient, type HttpClient } from './http.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { waitUntil } from './wait-until.ts';

/** The admin every test host and test shop is configured with. */
export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' };
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough';

/** What a test process's configuration is, before the test's own `env`: silent, port 0, the test admin. */
export function testConfig(databaseUrl: string, dataDir: string, env: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  });
}

/** Logging in and signing up over a shop's HTTP API. */
export function accountClient(api: HttpClient) {
  return {
    /** Logs in (the admin by default) and answers the token. */
    async login(email = ADMIN.email, password = ADMIN.password): Promise<string> {
      const r = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.token;
    },
    /** Registers a shopper (password 'secret1') and answers their id and token. */
    async signUp(name: string, email: string, phone = '+919800000000'): Promise<{ userId: string; token: string }> {
      const r = await api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
        body: { name, email, phone, password: 'secret1' },
      });
      if (r.status !== 201) throw new Error(`sign-up failed: ${r.status} ${JSON.stringify(r.body)}`);
      return { userId: r.body.user.id, token: r.body.token };
    },
  };
}

export interface TestHostOptions<M extends readonly ServiceModule[]> {
  /** The service modules this "process" hosts, built on its context. */
  modules: (ctx: ServiceContext) => M;
  /** Its name in logs, health and metrics. */
  service?: string;
  /** Host on this database (one another host or process also uses); else a fresh one, dropped on stop. */
  databaseUrl?: string;
  /** Redis adapters (cache, pub/sub, jobs, rate limits) on the test Redis server. */
  redis?: boolean;
  /**
   * Pub/sub alone through Redis under a prefix of the test's own: hosts given the same prefix fan out to
   * each other as separate processes do, and other test files sharing the Redis server are not heard.
   */
  redisPubSub?: { url: string; prefix: string };
  /** The Kafka bus on the test broker (else the Postgres-log bus). */
  kafka?: boolean;
  /** More configuration (RESERVATION_TTL_SECONDS ...), over the test defaults. */
  env?: Record<string, string>;
  /** The services' clock (the real one unless given). */
  clock?: () => Date;
  /** Serve the modules over HTTP on 127.0.0.1 as buildServiceApp does for a process (default true). */
  http?: boolean;
  /** Subscribe the modules' consumers (default true); false: a process whose partitions went elsewhere. */
  consumers?: boolean;
  /** Start consumers, jobs and modules at all (default true); false: only their routers are read or served. */
  start?: boolean;
  /** Wait until the admin can log in before answering (hosts with the accounts module). */
  waitForAdmin?: boolean;
}

export interface TestHost<M extends readonly ServiceModule[]> {
  /** Where the modules answer over HTTP ('' without `http`). */
  url: string;
  /** The fresh database, when the host made one. */
  db?: TestDatabase;
  infra: Infrastructure;
  ctx: ServiceContext;
  modules: M;
  api: HttpClient;
  login: ReturnType<typeof accountClient>['login'];
  signUp: ReturnType<typeof accountClient>['signUp'];
  stop(): Promise<void>;
}

/**
 * One "process" hosting the given modules the way runService and the gateway do (createInfrastructure,
 * buildServiceApp, startModules), with the test's adapters; every module-level test host is this.
 */
export async function startTestHost<M extends readonly ServiceModule[]>(
  opts: TestHostOptions<M>,
): Promise<TestHost<M>> {
  const db = opts.databaseUrl ? undefined : await createTestDatabase({ migrate: false });
  const databaseUrl = opts.databaseUrl ?? db!.url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-host-'));
  const service = opts.service ?? 'test-host';
  const config = testConfig(databaseUrl, dataDir, {
    REDIS_URL: opts.redis ? inject('redisUrl') : undefined,
    KAFKA_BROKERS: opts.kafka ? inject('kafkaBrokers') : undefined,
    ...opts.env,
  });
  const infra = await createInfrastructure(config, service);
  const pubsub: PubSub | undefined = opts.redisPubSub
    ? new RedisPubSub({ connection: opts.redisPubSub.url, prefix: opts.redisPubSub.prefix })
    : undefined;
  const ctx: ServiceContext = {
    ...infra.context,
    ...(pubsub ? { pubsub } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  };
  const modules = opts.modules(ctx);
  const hosted = opts.consumers === false ? modules.map((m) => ({ ...m, consumers: [] })) : modules;
  const running = opts.start === false ? undefined : await startModules(infra, [...hosted], []);
  let server: Server | undefined;
  let url = '';
  if (opts.http !== false) {
    const listening = await listen(buildServiceApp(infra, [...modules], { service }), 0, '127.0.0.1');
    server = listening.server;
    url = `http://127.0.0.1:${listening.port}`;
  }
  const api = httpClient(url);
  const accounts = accountClient(api);
  // accounts' start() records the admin; the users projection makes it a login shortly after.
  if (opts.waitForAdmin)
    await waitUntil(
      async () => (await api('POST', '/api/auth/login', { body: ADMIN })).status === 200,
      'the admin account to be readable',
    );
  return {
    url,
    db,
    infra,
    ctx,
    modules,
    api,
    ...accounts,
    async stop() {
      await running?.stop(); // ends the push streams, so the server can close
      if (server) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      }
      await pubsub?.close();
      await infra.close();
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
