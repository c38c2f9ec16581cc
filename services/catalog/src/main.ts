import { runService } from '@shop/shared/runtime/run-service';
import { createCatalogService } from './index.ts';

await runService('catalog', 'catalog', (ctx) => createCatalogService(ctx));
