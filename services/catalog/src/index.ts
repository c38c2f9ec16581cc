import path from 'node:path';
import { Router } from 'express';
import type { CatalogHistoryPort } from '@shop/shared/contracts/event-history';
import { mountRoutes, type RouteSpec } from '@shop/shared/http/route-table';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { sweepEveryMs } from '@shop/shared/jobs/sweep-interval';
import { malformedProductBody, PRODUCT_ROUTES, uploadsStatic } from './product/catalog-api.ts';
import { Catalog, type Written } from './product/catalog.ts';
import { ProductListCache } from './read-models/products/product-list-cache.ts';
import { PRODUCTS_PROJECTION, productsProjection } from './read-models/products/products-projection.ts';
import { bestSellersProjection } from './read-models/best-sellers/best-sellers-projection.ts';
import { seedDemoCatalog } from './seed/seed-catalog.ts';
import { seedDemoStorefront } from './seed/seed-storefront.ts';
import { ImageStore } from './uploads/images.ts';
import { Inventory } from './inventory/inventory.ts';
import { INVENTORY_ROUTES } from './inventory/inventory-api.ts';
import { catalogHistory } from './history/catalog-history.ts';
import { CATALOG_HISTORY_ROUTES } from './history/history-api.ts';
import { StockWriter } from './inventory/stock-writer.ts';
import { ProductFactsView } from './inventory/product-facts.ts';
import { HOLD_EXPIRY_JOB, holdBackstopMs } from './inventory/hold-expiry.ts';
import { stockHoldsProjection } from './read-models/stock-holds/stock-holds-projection.ts';
import { Collections } from './collection/collections.ts';
import { COLLECTION_ROUTES } from './collection/collections-api.ts';
import { COLLECTIONS_PROJECTION, collectionsProjection } from './read-models/collections/collections-projection.ts';
import { HomeSections } from './home-section/home-sections.ts';
import { HOME_SECTION_ROUTES } from './home-section/home-sections-api.ts';
import {
  HOME_SECTIONS_PROJECTION,
  homeSectionsProjection,
} from './read-models/home-sections/home-sections-projection.ts';
import { Homepage } from './homepage/homepage.ts';
import { HOMEPAGE_ROUTES } from './homepage/homepage-api.ts';
import { PHOTO_ROUTES } from './uploads/photos-api.ts';
import { HOMEPAGE_PROJECTION, homepageProjection } from './read-models/homepage/homepage-projection.ts';

/** Every route the catalog service mounts (the /internal/inventory/* ones only in its own process). */
export const CATALOG_ROUTES: RouteSpec[] = [
  ...PRODUCT_ROUTES,
  ...COLLECTION_ROUTES,
  ...HOME_SECTION_ROUTES,
  ...HOMEPAGE_ROUTES,
  ...PHOTO_ROUTES,
  ...INVENTORY_ROUTES,
  ...CATALOG_HISTORY_ROUTES,
];
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { productsReadModel } from './read-models/products/products-projection.ts';
import { bestSellersReadModel } from './read-models/best-sellers/best-sellers-projection.ts';
import { stockHoldsReadModel } from './read-models/stock-holds/stock-holds-projection.ts';
import { collectionsReadModel } from './read-models/collections/collections-projection.ts';
import { homeSectionsReadModel } from './read-models/home-sections/home-sections-projection.ts';
import { homepageReadModel } from './read-models/homepage/homepage-projection.ts';
import { SoldOutBeacon } from './inventory/sold-out-beacon.ts';

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
export { SoldOutFlags, SOLD_OUT_TTL_MS } from './inventory/sold-out-beacon.ts';
export { ProductListCache } from './read-models/products/product-list-cache.ts';
export { InventoryHttpClient } from './inventory/inventory-http-client.ts';
export { catalogHistory } from './history/catalog-history.ts';
export type { ProductEvent } from './product/events.ts';
export type { StockEvent } from './stock/events.ts';

/** Where the catalog serves uploaded and seeded images (files, not routes of the table). */
export const UPLOADS_PATH = '/uploads';

/** Where uploaded and seeded images live (served at UPLOADS_PATH): the renditions of uploaded photos. */
export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Where uploaded photos are kept as they were sent (never served: EXIF and all, for the admin). */
export const originalsDir = (dataDir: string) => path.join(dataDir, 'originals');

/** Catalog service: products, per-size stock, images; seeds the demo catalog on first start. */
export function createCatalogService(
  ctx: ServiceContext,
  opts: {
    seed?: boolean;
    /**
     * Serve /internal/inventory/* (service tokens only) for a checkout running as its own process, and a
     * reservation's part of an order's history for the order service. Off in the all-in-one process, where
     * checkout holds the inventory in-process and nothing may reach it by HTTP.
     */
    internalRoutes?: boolean;
    /**
     * Only this process appends stock events (the all-in-one process): a sold-out stock is trusted from
     * memory with no staleness window (StockWriter's soleWriter).
     */
    soleStockWriter?: boolean;
    /** Publish products' sold-out stocks for the distributed gateway's refusals (SoldOutBeacon). */
    soldOutBeacon?: boolean;
  } = {},
): ServiceModule & { catalog: Catalog; inventory: Inventory; history: CatalogHistoryPort } {
  const store = ctx.eventStore('catalog');
  const catalog = new Catalog(store, ctx.clock);
  const dir = uploadsDir(ctx.config.DATA_DIR);
  const images = new ImageStore(dir, originalsDir(ctx.config.DATA_DIR));
  const listCache = new ProductListCache(ctx.pool, ctx.cache, ctx.pubsub);
  const ttlSeconds = ctx.config.RESERVATION_TTL_SECONDS;
  const productFacts = new ProductFactsView(ctx.pool, ctx.pubsub);
  const stockWriter = new StockWriter(store, { soleWriter: opts.soleStockWriter });
  const beacon = opts.soldOutBeacon
    ? new SoldOutBeacon({ writer: stockWriter, products: productFacts, store, pubsub: ctx.pubsub, logger: ctx.logger })
    : undefined;
  const inventory = new Inventory(ctx.pool, stockWriter, productFacts, ctx.clock, holdBackstopMs(ttlSeconds));
  ctx.jobs.register(HOLD_EXPIRY_JOB, async () => {
    const released = await inventory.releaseLapsedHolds();
    if (released > 0) ctx.logger.info({ released }, 'released stock holds that no checkout settled');
  });
  const collections = new Collections(store, ctx.clock);
  const sections = new HomeSections(store, ctx.clock);
  const homepage = new Homepage(store, ctx.clock);
  const { pool, waitForProjection } = ctx;
  const router = Router();
  router.use(UPLOADS_PATH, uploadsStatic(dir));
  mountRoutes(router, PRODUCT_ROUTES, { pool, waitForProjection, catalog, images, listCache });
  router.use('/api/products', malformedProductBody);
  mountRoutes(router, COLLECTION_ROUTES, { pool, waitForProjection, collections, images });
  mountRoutes(router, HOME_SECTION_ROUTES, { pool, waitForProjection, sections });
  mountRoutes(router, HOMEPAGE_ROUTES, { pool, waitForProjection, homepage, images });
  mountRoutes(router, PHOTO_ROUTES, { images });
  const history = catalogHistory(pool);
  if (opts.internalRoutes) {
    mountRoutes(router, INVENTORY_ROUTES, { inventory });
    mountRoutes(router, CATALOG_HISTORY_ROUTES, { history });
  }
  return {
    name: 'catalog',
    catalog,
    inventory,
    history,
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
      await beacon?.start();
      await ctx.jobs.repeat(HOLD_EXPIRY_JOB, sweepEveryMs(ttlSeconds));
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
      await beacon?.stop();
      await listCache.stop();
      await productFacts.stop();
    },
  };
}
