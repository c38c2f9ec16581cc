-- The admin dashboard's figures, all in the orders schema: the order service never reads another service's
-- tables, so it keeps its own read models of the catalog and accounts events it needs.

-- Also projection orders.orders: one row per order ever placed, with its India-time day (UTC+5:30), for
-- revenue per day. Like orders.order_totals it outlives the admin list: deleting a delivered order keeps its
-- row, so the days add up to the total revenue.
CREATE TABLE IF NOT EXISTS orders.order_revenue (
  order_number text PRIMARY KEY,
  placed_on    date NOT NULL,
  total_paise  bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS order_revenue_by_day ON orders.order_revenue (placed_on);
-- Orders placed before this table existed (their events are in the log already; the projection's own
-- inserts of them are no-ops).
INSERT INTO orders.order_revenue (order_number, placed_on, total_paise)
SELECT data->>'orderNumber',
       ((data->>'placedAt')::timestamptz AT TIME ZONE 'UTC' + interval '5 hours 30 minutes')::date,
       (data->>'totalPaise')::bigint
  FROM orders.events WHERE type = 'OrderPlaced'
ON CONFLICT (order_number) DO NOTHING;

-- Projection orders.dashboard_catalog (rebuildable from catalog.events): products and their units on sale,
-- counted the way catalog.products counts its quantity. A deleted product stays as a tombstone (deleted =
-- true, no stock rows), so a stock event of another stream arriving after the deletion adds nothing back.
CREATE TABLE IF NOT EXISTS orders.dashboard_products (
  product_id  text PRIMARY KEY,
  size_labels text[] NOT NULL DEFAULT '{}',
  -- general stock (never below 0) + the offered sizes' stock (each never below 0)
  units       integer NOT NULL DEFAULT 0,
  deleted     boolean NOT NULL DEFAULT false
);
-- available units per product and size ('' = the general quantity)
CREATE TABLE IF NOT EXISTS orders.dashboard_stock_levels (
  product_id text NOT NULL,
  size       text NOT NULL,
  available  integer NOT NULL,
  PRIMARY KEY (product_id, size)
);

-- Projection orders.dashboard_accounts (rebuildable from accounts.events): registered users and the
-- status of each testimonial (a deleted one has no row).
CREATE TABLE IF NOT EXISTS orders.dashboard_users (
  user_id text PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS orders.dashboard_testimonials (
  testimonial_id text PRIMARY KEY,
  status         text NOT NULL
);
