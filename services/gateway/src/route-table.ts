import { ACCOUNTS_ROUTES } from '@shop/accounts';
import { CATALOG_ROUTES } from '@shop/catalog';
import { CHECKOUT_ROUTES } from '@shop/checkout';
import { ORDER_ROUTES } from '@shop/order';
import type { RouteSpec } from '@shop/shared/http/route-table';

/**
 * Every route the shop's services mount (their /api/* and /internal/* routes), one spec each: the source
 * of the OpenAPI document, the authorization matrix and the fuzzer. route-table.int.spec.ts checks it
 * against the routers actually mounted. Not in it: /api/health and /metrics (every process's own), the
 * payment sandbox (/razorpay-sandbox/*) and the web app.
 */
export const ROUTE_TABLE: RouteSpec[] = [...ACCOUNTS_ROUTES, ...CATALOG_ROUTES, ...CHECKOUT_ROUTES, ...ORDER_ROUTES];
