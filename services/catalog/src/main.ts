import { runService } from '@shop/shared/runtime/run-service';
import { createCatalogService } from './index.ts';

// Its own process: checkout reaches the inventory over /internal/inventory/* with a service token.
await runService('catalog', 'catalog', (ctx) => createCatalogService(ctx, { internalRoutes: true }));
