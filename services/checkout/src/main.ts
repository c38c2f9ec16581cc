import { InventoryHttpClient } from '@shop/catalog/client';
import { OrderPlacementHttpClient } from '@shop/order/client';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createCheckoutService } from './index.ts';

await runService('checkout', 'checkout', (ctx) => {
  // Peers come from SERVICE_URLS (catalog=http://..., order=http://...); the gateway's URL hosts the sandbox
  // by default. Checkout reaches other services only through their ports, never their schemas.
  const peers = ctx.config.SERVICE_URLS ?? {};
  const catalogUrl = peers.catalog?.origin;
  const orderUrl = peers.order?.origin;
  const gatewayUrl = peers.gateway?.origin;
  if (!catalogUrl || !orderUrl || !gatewayUrl)
    throw new ConfigError(['SERVICE_URLS: checkout needs catalog=<url>, order=<url> and gateway=<url>']);
  const serviceToken = ctx.tokens.sign({
    id: 'service:checkout',
    name: 'checkout',
    email: 'checkout@services.internal',
    isAdmin: false,
  });
  const orderPlacement = new OrderPlacementHttpClient(orderUrl, serviceToken, ctx.logger);
  return createCheckoutService(ctx, {
    internalRoutes: true,
    inventory: new InventoryHttpClient(catalogUrl, serviceToken),
    gatewayUrl,
    waitForOrder: (payment, timeoutMs) => orderPlacement.orderOfPayment(payment, timeoutMs),
  });
});
