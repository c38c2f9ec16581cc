import { createCatalogService } from '@shop/catalog';
import { createOrderService } from '@shop/order';
import { startTestHost } from '@shop/test-support/test-host';
import type { TestShop } from '@shop/test-support/test-shop';

/**
 * /internal/* as the catalog and order processes serve it in distributed mode (the all-in-one shop mounts
 * none): the real service modules with `internalRoutes`, on an app built by buildServiceApp (the shared
 * authenticate() and error handler), over the shop's own database with the same test configuration (same
 * JWT secret). Only HTTP: no consumers or jobs are started, the shop's own modules run those.
 */
export async function startInternalRoutes(shop: TestShop): Promise<{ url: string; close(): Promise<void> }> {
  const host = await startTestHost({
    service: 'internal-routes',
    databaseUrl: shop.db.url,
    start: false,
    modules: (ctx) => [
      createCatalogService(ctx, { internalRoutes: true, seed: false }),
      createOrderService(ctx, { internalRoutes: true }),
    ],
  });
  return { url: host.url, close: host.stop };
}
