-- catalog read models (rebuildable from catalog.events)
CREATE TABLE IF NOT EXISTS catalog.products (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  price_paise    bigint NOT NULL,
  description    text NOT NULL DEFAULT '',
  category       text NOT NULL DEFAULT '',
  size           text NOT NULL DEFAULT '',
  color          text NOT NULL DEFAULT '',
  brand          text NOT NULL DEFAULT '',
  material       text NOT NULL DEFAULT '',
  image          text NOT NULL DEFAULT '',
  size_labels    text[] NOT NULL DEFAULT '{}',
  -- json (not jsonb) keeps the admin's size order
  size_quantities json NOT NULL DEFAULT '{}',
  quantity       integer NOT NULL DEFAULT 0,
  is_delisted    boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS products_listing ON catalog.products (is_delisted, created_at, id);

-- available units per product and size ('' = the product's general quantity)
CREATE TABLE IF NOT EXISTS catalog.stock_levels (
  product_id text NOT NULL,
  size       text NOT NULL,
  available  integer NOT NULL,
  PRIMARY KEY (product_id, size)
);
