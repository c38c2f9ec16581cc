import { InventoryHttpClient } from '@shop/catalog';
import { waitForOrderOfPayment } from '@shop/order';
import { ConfigError } from '@shop/shared/config/config';
import { runService } from '@shop/shared/runtime/run-service';
import { createCheckoutService } from './index.ts';

await runService('checkout', 'checkout', (ctx) => {
  // Peers come from SERVICE_URLS (catalog=http://...); the gateway's URL hosts the sandbox by default.
  const peers = new Map(
    (ctx.config.SERVICE_URLS ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => p.split('=') as [string, string]),
  );
  const catalogUrl = peers.get('catalog');
  const gatewayUrl = peers.get('gateway');
  if (!catalogUrl || !gatewayUrl)
    throw new ConfigError(['SERVICE_URLS: checkout needs catalog=<url> and gateway=<url>']);
  const serviceToken = ctx.tokens.sign({
    id: 'service:checkout',
    name: 'checkout',
    email: 'checkout@services.internal',
    isAdmin: false,
  });
  return createCheckoutService(ctx, {
    inventory: new InventoryHttpClient(catalogUrl, serviceToken),
    gatewayUrl,
    waitForOrder: (payment) => waitForOrderOfPayment(ctx, payment),
  });
});
