import { UserDirectoryHttpClient } from '@shop/accounts/client';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createCatalogService } from './index.ts';

// Its own process: checkout reaches the inventory over /internal/inventory/* with a service token. Tokens'
// users are checked with the accounts service (SERVICE_URLS: accounts=http://...).
await runService('catalog', 'catalog', (ctx) => {
  const accountsUrl = ctx.config.SERVICE_URLS?.accounts?.origin;
  if (!accountsUrl) throw new ConfigError(['SERVICE_URLS: catalog needs accounts=<url>']);
  ctx.users.bind(new UserDirectoryHttpClient(accountsUrl, () => ctx.tokens.signService('catalog')));
  return createCatalogService(ctx, { internalRoutes: true, soldOutBeacon: true });
});
