import { UserDirectoryHttpClient } from '@shop/accounts/client';
import { CatalogHistoryHttpClient } from '@shop/catalog/client';
import { CheckoutHistoryHttpClient } from '@shop/checkout/client';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createOrderService } from './index.ts';

// Its own process: checkout asks which order a payment became over /internal/orders/* with a service token.
// Tokens' users are checked with the accounts service; an order's history takes the reservation's part from
// the catalog and the payment's from checkout, over their /internal routes (SERVICE_URLS: accounts=http://...,
// catalog=http://..., checkout=http://...).
await runService('order', 'orders', (ctx) => {
  const peers = ctx.config.SERVICE_URLS ?? {};
  const accountsUrl = peers.accounts?.origin;
  const catalogUrl = peers.catalog?.origin;
  const checkoutUrl = peers.checkout?.origin;
  if (!accountsUrl || !catalogUrl || !checkoutUrl)
    throw new ConfigError(['SERVICE_URLS: order needs accounts=<url>, catalog=<url> and checkout=<url>']);
  ctx.users.bind(new UserDirectoryHttpClient(accountsUrl, () => ctx.tokens.signService('order')));
  const serviceToken = ctx.tokens.signService('order');
  return createOrderService(ctx, {
    internalRoutes: true,
    // The gateway hosts the Shiprocket sandbox when no credentials are set.
    shipping: { gatewayUrl: peers.gateway?.origin },
    history: {
      catalog: new CatalogHistoryHttpClient(catalogUrl, serviceToken),
      checkout: new CheckoutHistoryHttpClient(checkoutUrl, serviceToken),
    },
  });
});
