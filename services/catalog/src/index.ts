import path from 'node:path';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { catalogRouter } from './api.ts';
import { Catalog, type Written } from './catalog.ts';
import { ProductListCache } from './read-models/products/product-list-cache.ts';
import { PRODUCTS_PROJECTION, productsProjection } from './read-models/products/products-projection.ts';
import { bestSellersProjection } from './read-models/best-sellers/best-sellers-projection.ts';
import { seedDemoCatalog } from './seed/seed-catalog.ts';
import { seedDemoStorefront } from './seed/seed-storefront.ts';
import { ImageStore } from './uploads/images.ts';
import { Inventory } from './inventory/inventory.ts';
import { inventoryRouter } from './inventory/inventory-api.ts';
import { StockWriter } from './inventory/stock-writer.ts';
import { ProductFactsView } from './inventory/product-facts.ts';
import { HOLD_EXPIRY_JOB, holdBackstopMs, holdSweepEveryMs } from './inventory/hold-expiry.ts';
import { stockHoldsProjection } from './read-models/stock-holds/stock-holds-projection.ts';
import { Collections } from './collections.ts';
import { collectionsRouter } from './collections-api.ts';
import { COLLECTIONS_PROJECTION, collectionsProjection } from './read-models/collections/collections-projection.ts';
import { HomeSections } from './home-sections.ts';
import { homeSectionsRouter } from './home-sections-api.ts';
import {
  HOME_SECTIONS_PROJECTION,
  homeSectionsProjection,
} from './read-models/home-sections/home-sections-projection.ts';
import { Homepage } from './homepage.ts';
import { homepageRouter } from './homepage-api.ts';
import { HOMEPAGE_PROJECTION, homepageProjection } from './read-models/homepage/homepage-projection.ts';

export { CATALOG_ROUTES } from './routes.ts';
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { productsReadModel } from './read-models/products/products-projection.ts';
import { bestSellersReadModel } from './read-models/best-sellers/best-sellers-projection.ts';
import { stockHoldsReadModel } from './read-models/stock-holds/stock-holds-projection.ts';
import { collectionsReadModel } from './read-models/collections/collections-projection.ts';
import { homeSectionsReadModel } from './read-models/home-sections/home-sections-projection.ts';
import { homepageReadModel } from './read-models/homepage/homepage-projection.ts';

/** The catalog's projections, for replay (every one of its consumers: it has no process manager). */
export const readModels: readonly ProjectionRegistration[] = [
  productsReadModel,
  collectionsReadModel,
  homeSectionsReadModel,
  bestSellersReadModel,
  homepageReadModel,
  stockHoldsReadModel,
];
export const processManagers: readonly string[] = [];

export { productsProjection, PRODUCTS_PROJECTION } from './read-models/products/products-projection.ts';
export { Inventory } from './inventory/inventory.ts';
export { ProductListCache } from './read-models/products/product-list-cache.ts';
export { InventoryHttpClient } from './inventory/inventory-http-client.ts';

/** Where uploaded and seeded images live (served at /uploads). */
export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Catalog service: products, per-size stock, images; seeds the demo catalog on first start. */
export function createCatalogService(
  ctx: ServiceContext,
  opts: {
    seed?: boolean;
    /**
     * Serve /internal/inventory/* (service tokens only) for a checkout running as its own process. Off in
     * the all-in-one process, where checkout holds the inventory in-process and nothing may reach it by HTTP.
     */
    internalRoutes?: boolean;
  } = {},
): ServiceModule & { catalog: Catalog; inventory: Inventory } {
  const store = ctx.eventStore('catalog');
  const catalog = new Catalog(store, ctx.clock);
  const dir = uploadsDir(ctx.config.DATA_DIR);
  const images = new ImageStore(dir);
  const listCache = new ProductListCache(ctx.pool, ctx.cache, ctx.pubsub);
  const ttlSeconds = ctx.config.RESERVATION_TTL_SECONDS;
  const productFacts = new ProductFactsView(ctx.pool, ctx.pubsub);
  const inventory = new Inventory(
    ctx.pool,
    new StockWriter(store),
    productFacts,
    ctx.clock,
    holdBackstopMs(ttlSeconds),
  );
  ctx.jobs.register(HOLD_EXPIRY_JOB, async () => {
    const released = await inventory.releaseLapsedHolds();
    if (released > 0) ctx.logger.info({ released }, 'released stock holds that no checkout settled');
  });
  const router = catalogRouter(ctx, { catalog, images, listCache, uploadsDir: dir });
  const collections = new Collections(store, ctx.clock);
  const sections = new HomeSections(store, ctx.clock);
  const homepage = new Homepage(store, ctx.clock);
  router.use(collectionsRouter(ctx, { collections, images }));
  // Only /api/home/sections/...: /api/home itself (the carousel) is served by its own router.
  router.use(homeSectionsRouter(ctx, { sections }));
  router.use(homepageRouter(ctx, { homepage, images }));
  if (opts.internalRoutes) router.use(inventoryRouter(inventory));
  return {
    name: 'catalog',
    catalog,
    inventory,
    router,
    consumers: [
      productsProjection(listCache, productFacts),
      collectionsProjection(),
      homeSectionsProjection(),
      bestSellersProjection(),
      homepageProjection,
      stockHoldsProjection,
    ],
    async start() {
      await listCache.start();
      await productFacts.start();
      await ctx.jobs.repeat(HOLD_EXPIRY_JOB, holdSweepEveryMs(ttlSeconds));
      if (opts.seed !== false) {
        // The shop reports ready only once its lists show what was seeded.
        const readable = async (consumer: string, written: Written) => {
          for (const w of written) {
            const ok = await ctx.waitForProjection({ schema: 'catalog', consumer, ...w, timeoutMs: 30_000 });
            if (!ok) throw new Error(`${consumer} did not reach ${w.streamId}@${w.version} in 30 s`);
          }
        };
        const n = await seedDemoCatalog(store, catalog, images, (written) => readable(PRODUCTS_PROJECTION, written));
        if (n > 0) ctx.logger.info({ products: n }, 'demo catalog seeded');
        // Only on the start that seeded the products: an existing shop keeps the storefront its admins made.
        if (n === 0) return;
        const storefront = await seedDemoStorefront(store, { collections, sections, homepage });
        await readable(COLLECTIONS_PROJECTION, storefront.collections);
        await readable(HOME_SECTIONS_PROJECTION, storefront.sections);
        await readable(HOMEPAGE_PROJECTION, storefront.homepage);
        if (storefront.homepage.length > 0) ctx.logger.info('demo collections, homepage section and carousel seeded');
      }
    },
    async stop() {
      await listCache.stop();
      await productFacts.stop();
    },
  };
}
