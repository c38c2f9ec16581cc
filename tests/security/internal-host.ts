import { createCatalogService } from '@shop/catalog';
import { createOrderService } from '@shop/order';
import { buildServiceApp, listen } from '@shop/shared/runtime/host';
import { createInfrastructure } from '@shop/shared/runtime/infrastructure';
import type { TestShop } from '@shop/test-support/test-shop';

/**
 * /internal/* as the catalog and order processes serve it in distributed mode (the all-in-one shop mounts
 * none): the real service modules with `internalRoutes`, on an app built by buildServiceApp (the shared
 * authenticate() and error handler), over the shop's own database and configuration (same JWT secret).
 * Only HTTP: no consumers or jobs are started, the shop's own modules run those.
 */
export async function startInternalRoutes(shop: TestShop): Promise<{ url: string; close(): Promise<void> }> {
  const infra = await createInfrastructure(shop.infra.config, 'internal-routes');
  const modules = [
    createCatalogService(infra.context, { internalRoutes: true, seed: false }),
    createOrderService(infra.context, { internalRoutes: true }),
  ];
  const app = buildServiceApp(infra, modules, { service: 'internal-routes' });
  const { server, port } = await listen(app, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await infra.close();
    },
  };
}
