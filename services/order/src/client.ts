/**
 * The order service's public client entry (`@shop/order/client`): what another service may import from
 * it. The port itself is in `@shop/shared/contracts/order-placement`.
 */
export { OrderPlacementHttpClient } from './placement/order-placement-http-client.ts';
