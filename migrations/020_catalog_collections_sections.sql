-- catalog read models for storefront curation (rebuildable from catalog.events)

-- catalog.collections projection
CREATE TABLE IF NOT EXISTS catalog.collections (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  image       text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS collections_listing ON catalog.collections (created_at, id);

-- A collection's products. Names and listing come from catalog.products at query time (a join), so a
-- product whose events arrive after the collection's (Kafka: no order across streams) shows once it exists.
-- position = the stream version of the event that added it: the order the admin added them in.
CREATE TABLE IF NOT EXISTS catalog.collection_products (
  collection_id text NOT NULL,
  product_id    text NOT NULL,
  position      integer NOT NULL,
  PRIMARY KEY (collection_id, product_id)
);
CREATE INDEX IF NOT EXISTS collection_products_by_product ON catalog.collection_products (product_id);

-- Products deleted from the catalog, as the collections projection saw them: a late
-- ProductAddedToCollection (another stream, any order) for one of them is not kept. Product ids are never reused.
CREATE TABLE IF NOT EXISTS catalog.collection_deleted_products (
  product_id text PRIMARY KEY
);

-- catalog.home_sections projection
CREATE TABLE IF NOT EXISTS catalog.home_sections (
  id               text PRIMARY KEY,
  name             text NOT NULL,
  content_type     text NOT NULL,
  content_ids      text[] NOT NULL,
  text_style       text NOT NULL,
  text_color       text NOT NULL,
  background_color text NOT NULL,
  text_size        text NOT NULL,
  display_order    integer NOT NULL,
  is_active        boolean NOT NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS home_sections_listing ON catalog.home_sections (is_active, display_order, created_at, id);
