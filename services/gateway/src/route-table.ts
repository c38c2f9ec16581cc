import { ACCOUNTS_ROUTES } from '@shop/accounts';
import { CATALOG_ROUTES, UPLOADS_PATH } from '@shop/catalog';
import { CHECKOUT_ROUTES } from '@shop/checkout';
import { ORDER_ROUTES } from '@shop/order';
import type { RouteSpec } from '@shop/shared/http/route-table';

/**
 * Every route the shop's services mount (their /api/* and /internal/* routes), as each declares it next to
 * its handler: the source of the OpenAPI document, the authorization matrix, the fuzzer and the forwarding
 * table. Not in it: /api/health and /metrics (every process's own), the catalog's image files (/uploads), the
 * payment sandbox (/razorpay-sandbox/*) and the web app.
 */
export const ROUTE_TABLE: RouteSpec[] = [...ACCOUNTS_ROUTES, ...CATALOG_ROUTES, ...CHECKOUT_ROUTES, ...ORDER_ROUTES];

/**
 * Path prefixes each service owns, which the distributed gateway forwards by: /api/<first segment> of each
 * of its routes (/internal/* is never forwarded: services call each other directly), and the catalog's
 * image files.
 */
export const SERVICE_ROUTES: Record<string, string[]> = {};
for (const route of ROUTE_TABLE) {
  const prefix = /^\/api\/[^/]+/.exec(route.path)?.[0];
  const prefixes = (SERVICE_ROUTES[route.service] ??= []);
  if (prefix && !prefixes.includes(prefix)) prefixes.push(prefix);
}
SERVICE_ROUTES.catalog!.push(UPLOADS_PATH);
