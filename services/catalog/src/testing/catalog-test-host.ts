import type { Infrastructure } from '@shop/shared/runtime/infrastructure';
import type { ServiceContext } from '@shop/shared/runtime/service';
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
    createProduct: (name, stock) =>
      createProductAndWait(catalog, host.ctx, { name, pricePaise: 10_000 }, stock),
    stop: host.stop,
  };
}

/**
 * Creates a product of the Men category with this name and price (nothing else filled in) and waits until
 * the products read model shows it, as the API does (checkout prices from that read model); its id.
 */
export async function createProductAndWait(
  catalog: ReturnType<typeof createCatalogService>,
  ctx: Pick<ServiceContext, 'waitForProjection'>,
  product: { name: string; pricePaise: number },
  stock: Required<StockInput>,
): Promise<string> {
  const { productId, written } = await catalog.catalog.createProduct(
    { ...product, description: '', category: 'Men', size: '', color: '', brand: '', material: '', image: '' },
    stock,
  );
  for (const w of written)
    if (!(await ctx.waitForProjection({ schema: 'catalog', consumer: PRODUCTS_PROJECTION, ...w })))
      throw new Error(`products projection did not reach ${w.streamId}@${w.version}`);
  return productId;
}
