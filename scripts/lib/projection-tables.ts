import type { ReplayFoldFactory } from '../../services/shared/src/replay/fold.ts';
import { productsReplayFold } from '../../services/catalog/src/read-models/products/products-replay-fold.ts';
import { stockHoldsReplayFold } from '../../services/catalog/src/read-models/stock-holds/stock-holds-replay-fold.ts';
import { bestSellersReplayFold } from '../../services/catalog/src/read-models/best-sellers/best-sellers-replay-fold.ts';
import { paymentOrdersReplayFold } from '../../services/checkout/src/payment/read-models/payment-orders-replay-fold.ts';
import { couponsReplayFold } from '../../services/checkout/src/coupons/read-models/coupons/coupons-replay-fold.ts';
import { ordersReplayFold } from '../../services/order/src/read-models/orders/orders-replay-fold.ts';
import { usersReplayFold } from '../../services/accounts/src/read-models/users/users-replay-fold.ts';
import { accountsFiguresReplayFold } from '../../services/order/src/read-models/dashboard/accounts-figures-replay-fold.ts';
import { catalogFiguresReplayFold } from '../../services/order/src/read-models/dashboard/catalog-figures-replay-fold.ts';

/**
 * The tables each projection owns (docs/architecture.md, "Projections"): what `npm run replay` rebuilds
 * into shadows and swaps or compares. Process managers are not replayed: they act (append events, commit
 * stock) rather than keep a read model, and replaying them would act again.
 */
export const PROJECTION_TABLES: Readonly<Record<string, readonly string[]>> = {
  'accounts.users': ['accounts.users'],
  'accounts.testimonials': ['accounts.testimonials'],
  'catalog.products': ['catalog.products', 'catalog.stock_levels'],
  'catalog.collections': ['catalog.collections', 'catalog.collection_products', 'catalog.collection_deleted_products'],
  'catalog.home_sections': ['catalog.home_sections'],
  'catalog.homepage': ['catalog.homepage'],
  'catalog.best_sellers': ['catalog.best_sellers'],
  'catalog.stock-holds': ['catalog.stock_holds'],
  'checkout.delivery_settings': ['checkout.delivery_settings'],
  'checkout.coupons': ['checkout.coupons'],
  'checkout.addresses': ['checkout.addresses'],
  'checkout.payment_orders': ['checkout.payment_orders'],
  'checkout.refunds': ['checkout.refunds'],
  'orders.orders': ['orders.orders', 'orders.order_totals', 'orders.order_revenue'],
  'orders.dashboard_catalog': ['orders.dashboard_products', 'orders.dashboard_stock_levels'],
  'orders.dashboard_accounts': ['orders.dashboard_users', 'orders.dashboard_testimonials'],
};

/** Consumers that are process managers (never replayed). */
export const PROCESS_MANAGERS: readonly string[] = ['checkout.settlement', 'checkout.refunding', 'orders.placement'];

/**
 * The replay's fast path: in-memory folds (services/shared/src/replay/fold.ts) of the projections that carry
 * most of a shop's log (the sales: stock holds, payments, coupon uses, orders; and the accounts). The others replay through
 * their handle(). tests/ops/replay-fold.int.spec.ts proves each fold gives the rows its handle() gives.
 */
export const PROJECTION_FOLDS: Readonly<Record<string, ReplayFoldFactory>> = {
  'catalog.products': productsReplayFold,
  'catalog.stock-holds': stockHoldsReplayFold,
  'catalog.best_sellers': bestSellersReplayFold,
  'checkout.payment_orders': paymentOrdersReplayFold,
  'checkout.coupons': couponsReplayFold,
  'orders.orders': ordersReplayFold,
  'orders.dashboard_catalog': catalogFiguresReplayFold,
  'accounts.users': usersReplayFold,
  'orders.dashboard_accounts': accountsFiguresReplayFold,
};
