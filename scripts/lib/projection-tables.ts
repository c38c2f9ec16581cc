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
  'orders.orders': ['orders.orders', 'orders.order_totals', 'orders.order_revenue'],
  'orders.dashboard_catalog': ['orders.dashboard_products', 'orders.dashboard_stock_levels'],
  'orders.dashboard_accounts': ['orders.dashboard_users', 'orders.dashboard_testimonials'],
};

/** Consumers that are process managers (never replayed). */
export const PROCESS_MANAGERS: readonly string[] = ['checkout.settlement', 'orders.placement'];
