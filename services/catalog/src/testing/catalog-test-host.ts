import type { Infrastructure } from '@shop/shared/runtime/infrastructure';
import type { TestDatabase } from '@shop/test-support/test-database';
import { startTestHost } from '@shop/test-support/test-host';
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
  let skewMs = 0;
  const host = await startTestHost({
    service: 'catalog-test',
    modules: (ctx) => [createCatalogService(ctx, { seed: false })] as const,
    clock: () => new Date(Date.now() + skewMs),
    http: false,
    env,
  });
  const [catalog] = host.modules;
  return {
    db: host.db!,
    infra: host.infra,
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
        if (!(await host.ctx.waitForProjection({ schema: 'catalog', consumer: PRODUCTS_PROJECTION, ...w })))
          throw new Error(`products projection did not reach ${w.streamId}@${w.version}`);
      return productId;
    },
    stop: host.stop,
  };
}
