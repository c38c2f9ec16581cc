import { createAccountsService } from '@shop/accounts';
import { createCatalogService } from '@shop/catalog';
import { createCheckoutService } from '@shop/checkout';
import { createOrderService } from '@shop/order';
import { startTestHost } from '@shop/test-support/test-host';
import type { TestShop } from '@shop/test-support/test-shop';

/**
 * /internal/* as the accounts, catalog, checkout and order processes serve it in distributed mode (the all-in-one
 * shop mounts none): the real service modules with `internalRoutes`, on an app built by buildServiceApp (the
 * shared authenticate() and error handler), over the shop's own database with the same test configuration
 * (same JWT secret). Only HTTP: no consumers or jobs are started, the shop's own modules run those.
 */
export async function startInternalRoutes(shop: TestShop): Promise<{ url: string; close(): Promise<void> }> {
  const host = await startTestHost({
    service: 'internal-routes',
    databaseUrl: shop.db.url,
    start: false,
    modules: (ctx) => {
      const catalog = createCatalogService(ctx, { internalRoutes: true, seed: false });
      const checkout = createCheckoutService(ctx, {
        inventory: catalog.inventory,
        gatewayUrl: shop.url,
        waitForOrder: async () => null,
        allocateOrderNumbers: async () => [],
        internalRoutes: true,
      });
      const history = { catalog: catalog.history, checkout: checkout.history };
      const accounts = createAccountsService(ctx, { internalRoutes: true });
      return [accounts, catalog, checkout, createOrderService(ctx, { internalRoutes: true, history })];
    },
  });
  return { url: host.url, close: host.stop };
}
