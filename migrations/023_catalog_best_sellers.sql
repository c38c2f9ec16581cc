-- Projection catalog.best_sellers (rebuildable from catalog.events): units sold per product, from
-- StockCommitted (a sale; all sizes of a product summed). GET /api/products?sort=best-selling joins it to
-- catalog.products, so a deleted product's row here is simply never shown.
CREATE TABLE IF NOT EXISTS catalog.best_sellers (
  product_id text PRIMARY KEY,
  units_sold bigint NOT NULL
);
