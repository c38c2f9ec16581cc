/**
 * What the operator scripts (audit, replay) share: the shop's database, found the way the shop finds it, and
 * the shop's consumers, built by the same service modules the shop runs (never started here).
 *
 * Database: DATABASE_URL if set; else the embedded Postgres under DATA_DIR/postgres: the running shop's
 * server when postmaster.pid names a live one (safe while the shop runs), else this process starts it (and
 * stops it when done).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAccountsService } from '../../services/accounts/src/index.ts';
import { createCatalogService } from '../../services/catalog/src/index.ts';
import { createCheckoutService } from '../../services/checkout/src/index.ts';
import { createOrderService } from '../../services/order/src/index.ts';
import type { EventConsumer } from '../../services/shared/src/bus/types.ts';
import { loadConfig } from '../../services/shared/src/config/config.ts';
import { startEmbeddedPostgres } from '../../services/shared/src/db/embedded-postgres.ts';
import { isPostgresOn, isProcessAlive, readPostmasterPid } from '../../services/shared/src/db/postgres-process.ts';
import {
  createInfrastructure,
  SERVICE_SCHEMAS,
  type Infrastructure,
} from '../../services/shared/src/runtime/infrastructure.ts';

export { SERVICE_SCHEMAS };

export interface ShopDatabase {
  url: string;
  /** How it was found, for the first line of output. */
  how: string;
  close(): Promise<void>;
}

/** The port of a live embedded server on dataDir (postmaster.pid line 4), or undefined. */
export function runningEmbeddedPort(dataDir: string): number | undefined {
  const pid = readPostmasterPid(dataDir);
  if (pid === undefined || !isProcessAlive(pid) || !isPostgresOn(pid, dataDir)) return undefined;
  const port = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

export async function openShopDatabase(env: NodeJS.ProcessEnv = process.env): Promise<ShopDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, how: 'DATABASE_URL', close: async () => undefined };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  const port = runningEmbeddedPort(dataDir);
  if (port !== undefined)
    return {
      url: `postgres://postgres:postgres@127.0.0.1:${port}/shop`,
      how: `the running shop's embedded Postgres (${dataDir}, port ${port})`,
      close: async () => undefined,
    };
  const embedded = await startEmbeddedPostgres({ dataDir, database: 'shop' });
  return { url: embedded.url, how: `embedded Postgres started on ${dataDir}`, close: () => embedded.stop() };
}

export interface ShopTools {
  db: ShopDatabase;
  infra: Infrastructure;
  /** Every consumer the shop runs, as its service modules build them. */
  consumers: EventConsumer[];
  close(): Promise<void>;
}

/** Opens the database and builds the service modules (no HTTP, no subscriptions, no jobs started). */
export async function openShopTools(env: NodeJS.ProcessEnv = process.env): Promise<ShopTools> {
  const db = await openShopDatabase(env);
  try {
    // No Kafka here: these tools read and write Postgres only. REDIS_URL stays, so cache invalidations
    // (afterCommit of a replayed event) reach the shop's processes in distributed mode.
    const config = loadConfig({
      ...env,
      DATABASE_URL: db.url,
      KAFKA_BROKERS: undefined,
      LOG_LEVEL: env.LOG_LEVEL ?? 'error',
    });
    const infra = await createInfrastructure(config, 'ops');
    const ctx = infra.context;
    const catalog = createCatalogService(ctx, { seed: false });
    const checkout = createCheckoutService(ctx, {
      inventory: catalog.inventory,
      gatewayUrl: 'http://127.0.0.1:1',
      // Never called here (no HTTP): verify is the only caller.
      waitForOrder: async () => null,
      allocateOrderNumbers: async () => [],
    });
    const order = createOrderService(ctx, { history: { catalog: catalog.history, checkout: checkout.history } });
    const modules = [createAccountsService(ctx), catalog, checkout, order];
    return {
      db,
      infra,
      consumers: modules.flatMap((m) => m.consumers),
      async close() {
        await infra.close();
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}
