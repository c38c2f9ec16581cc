/**
 * The catalog service's public client entry (`@shop/catalog/client`): what another service may import
 * from it. The port itself is in `@shop/shared/contracts/inventory`.
 */
export { InventoryHttpClient } from './inventory/inventory-http-client.ts';
