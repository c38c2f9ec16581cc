import { CatalogHistoryHttpClient } from '@shop/catalog/client';
import { CheckoutHistoryHttpClient } from '@shop/checkout/client';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createOrderService } from './index.ts';

// Its own process: checkout asks which order a payment became over /internal/orders/* with a service token.
// An order's history takes the reservation's part from the catalog and the payment's from checkout, over
// their /internal routes (SERVICE_URLS: catalog=http://..., checkout=http://...).
await runService('order', 'orders', (ctx) => {
  const peers = ctx.config.SERVICE_URLS ?? {};
  const catalogUrl = peers.catalog?.origin;
  const checkoutUrl = peers.checkout?.origin;
  if (!catalogUrl || !checkoutUrl)
    throw new ConfigError(['SERVICE_URLS: order needs catalog=<url> and checkout=<url>']);
  const serviceToken = ctx.tokens.sign({
    id: 'service:order',
    name: 'order',
    email: 'order@services.internal',
    isAdmin: false,
  });
  return createOrderService(ctx, {
    internalRoutes: true,
    history: {
      catalog: new CatalogHistoryHttpClient(catalogUrl, serviceToken),
      checkout: new CheckoutHistoryHttpClient(checkoutUrl, serviceToken),
    },
  });
});
