-- Live stock holds with the catalog's backstop expiry (rebuildable from catalog.events): a hold is here
-- from StockReserved (with expiresAt) until StockReleased or StockCommitted of the same stream and hold.
CREATE TABLE IF NOT EXISTS catalog.stock_holds (
  stream_id  text NOT NULL,
  hold_id    text NOT NULL,
  product_id text NOT NULL,
  size       text,
  quantity   integer NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (stream_id, hold_id)
);
CREATE INDEX IF NOT EXISTS stock_holds_expiry ON catalog.stock_holds (expires_at);
