/**
 * The checkout service's public client entry (`@shop/checkout/client`): what another service may import
 * from it. The port itself is in `@shop/shared/contracts/event-history`.
 */
export { CheckoutHistoryHttpClient } from './history/history-http-client.ts';
