/**
 * The catalog service's public client entry (`@shop/catalog/client`): what another service may import
 * from it. The ports themselves are in `@shop/shared/contracts/inventory` and
 * `@shop/shared/contracts/event-history`.
 */
export { InventoryHttpClient } from './inventory/inventory-http-client.ts';
export { CatalogHistoryHttpClient } from './history/history-http-client.ts';
// How the catalog counts a product's units on sale from its stock events: the order dashboard's figures count the same way.
export { unitsOnSale } from './read-models/products/units-on-sale.ts';
