import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { startShop, type RunningShop } from '../../services/gateway/src/shop.ts';
import { httpClient, type HttpClient } from './http.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { accountClient, ADMIN, testConfig } from './test-host.ts';

export { ADMIN };
/** The gateway's composition root, for a test that starts the shop again on the same database (a restart). */
export { startShop };

export interface TestShop extends RunningShop {
  db: TestDatabase;
  /** fetch against the shop, JSON in and out. */
  api: HttpClient;
  login: ReturnType<typeof accountClient>['login'];
  signUp: ReturnType<typeof accountClient>['signUp'];
  stop(): Promise<void>;
}

/**
 * The whole shop in this process (the gateway's composition root, as `npm start` runs it) on a fresh
 * database; Redis and Kafka adapters when asked. Module-level hosts are startTestHost (test-host.ts).
 */
export async function startTestShop(
  opts: { redis?: boolean; kafka?: boolean; seed?: boolean; env?: Record<string, string> } = {},
): Promise<TestShop> {
  const db = await createTestDatabase({ migrate: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
  const config = testConfig(db.url, dataDir, {
    REDIS_URL: opts.redis ? inject('redisUrl') : undefined,
    KAFKA_BROKERS: opts.kafka ? inject('kafkaBrokers') : undefined,
    ...opts.env,
  });
  const shop = await startShop(config, { host: '127.0.0.1', seed: opts.seed ?? false });
  const api = httpClient(shop.url);
  return {
    ...shop,
    db,
    api,
    ...accountClient(api),
    async stop() {
      await shop.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test shop (`opts` as startTestShop takes them) with the admin's token and one signed-up shopper's. */
export async function startShopWithShopper(
  opts: Parameters<typeof startTestShop>[0],
  shopper: { name: string; email: string; phone: string },
): Promise<{ shop: TestShop; admin: string; shopper: string }> {
  const shop = await startTestShop(opts);
  try {
    const admin = await shop.login();
    return { shop, admin, shopper: (await shop.signUp(shopper.name, shopper.email, shopper.phone)).token };
  } catch (err) {
    await shop.stop();
    throw err;
  }
}
