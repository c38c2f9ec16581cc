import { UserDirectoryHttpClient } from '@shop/accounts/client';
import { InventoryHttpClient } from '@shop/catalog/client';
import { OrderPlacementHttpClient } from '@shop/order/client';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createCheckoutService } from './index.ts';

await runService('checkout', 'checkout', (ctx) => {
  // Peers come from SERVICE_URLS (accounts=http://..., catalog=http://..., order=http://...); the gateway's URL
  // hosts the sandbox by default. Checkout reaches other services only through their ports, never their schemas.
  const peers = ctx.config.SERVICE_URLS ?? {};
  const accountsUrl = peers.accounts?.origin;
  const catalogUrl = peers.catalog?.origin;
  const orderUrl = peers.order?.origin;
  const gatewayUrl = peers.gateway?.origin;
  if (!accountsUrl || !catalogUrl || !orderUrl || !gatewayUrl)
    throw new ConfigError([
      'SERVICE_URLS: checkout needs accounts=<url>, catalog=<url>, order=<url> and gateway=<url>',
    ]);
  ctx.users.bind(new UserDirectoryHttpClient(accountsUrl, () => ctx.tokens.signService('checkout')));
  const serviceToken = ctx.tokens.signService('checkout');
  const orderPlacement = new OrderPlacementHttpClient(orderUrl, serviceToken, ctx.logger);
  return createCheckoutService(ctx, {
    internalRoutes: true,
    inventory: new InventoryHttpClient(catalogUrl, serviceToken),
    gatewayUrl,
    waitForOrder: (payment, timeoutMs) => orderPlacement.orderOfPayment(payment, timeoutMs),
    allocateOrderNumbers: (count) => orderPlacement.allocateOrderNumbers(count),
  });
});
