import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@shop/shared/config/config';
import { startModules } from '@shop/shared/runtime/host';
import { createInfrastructure, type Infrastructure } from '@shop/shared/runtime/infrastructure';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { createCatalogService } from '../index.ts';
import { PRODUCTS_PROJECTION } from '../read-models/products/products-projection.ts';
import type { StockInput } from '../stock/stock-levels.ts';

export interface CatalogTestHost {
  db: TestDatabase;
  infra: Infrastructure;
  catalog: ReturnType<typeof createCatalogService>;
  /** Moves the catalog's clock forward (holds lapse when the test says so). */
  advanceClock(ms: number): void;
  /** Creates a product and waits until the products read model shows it. */
  createProduct(name: string, stock: Required<StockInput>): Promise<string>;
  stop(): Promise<void>;
}

/** The catalog service alone on a fresh database (Postgres-log bus), with a clock the test can move. */
export async function startCatalogTestHost(env: Record<string, string> = {}): Promise<CatalogTestHost> {
  const db = await createTestDatabase({ migrate: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-test-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough',
    ...env,
  });
  const infra = await createInfrastructure(config, 'catalog-test');
  let skewMs = 0;
  const ctx = { ...infra.context, clock: () => new Date(Date.now() + skewMs) };
  const catalog = createCatalogService(ctx, { seed: false });
  const running = await startModules(infra, [catalog], []);
  return {
    db,
    infra,
    catalog,
    advanceClock: (ms) => void (skewMs += ms),
    async createProduct(name, stock) {
      const { productId, written } = await catalog.catalog.createProduct(
        {
          name,
          pricePaise: 10_000,
          description: '',
          category: 'Men',
          size: '',
          color: '',
          brand: '',
          material: '',
          image: '',
        },
        stock,
      );
      for (const w of written)
        if (!(await ctx.waitForProjection({ schema: 'catalog', consumer: PRODUCTS_PROJECTION, ...w })))
          throw new Error(`products projection did not reach ${w.streamId}@${w.version}`);
      return productId;
    },
    async stop() {
      await running.stop();
      await infra.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
