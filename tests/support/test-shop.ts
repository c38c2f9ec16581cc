import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '@shop/shared/config/config';
import { startShop, type RunningShop } from '../../services/gateway/src/shop.ts';
import { httpClient } from './http.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' };

export interface TestShop extends RunningShop {
  db: TestDatabase;
  /** fetch against the shop, JSON in and out. */
  api: ReturnType<typeof httpClient>;
  login(email?: string, password?: string): Promise<string>;
  stop(): Promise<void>;
}

/** The whole shop in this process on a fresh database; Redis and Kafka adapters when asked. */
export async function startTestShop(
  opts: { redis?: boolean; kafka?: boolean; seed?: boolean; env?: Record<string, string> } = {},
): Promise<TestShop> {
  const db = await createTestDatabase({ migrate: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'test-secret-that-is-long-enough',
    REDIS_URL: opts.redis ? inject('redisUrl') : undefined,
    KAFKA_BROKERS: opts.kafka ? inject('kafkaBrokers') : undefined,
    ...opts.env,
  });
  const shop = await startShop(config, { host: '127.0.0.1', seed: opts.seed ?? false });
  const api = httpClient(shop.url);
  const login = async (email = ADMIN.email, password = ADMIN.password) => {
    const r = await api<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token;
  };
  return {
    ...shop,
    db,
    api,
    login,
    async stop() {
      await shop.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
