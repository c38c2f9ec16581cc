-- Unpaid checkouts holding stock, one row each, per buyer (`user:<account id>`, or a keyed hash of a guest's
-- address): caps how many one buyer may hold at once (MAX_LIVE_CHECKOUTS_PER_BUYER). Written by create-order
-- under a per-buyer advisory lock; a row goes when its order is paid or expires (the settlement consumer) or
-- its create-order fails. expires_at is only a backstop for a row whose process died mid-checkout.
-- Command-side state, not a read model: not rebuilt from the log.
CREATE TABLE IF NOT EXISTS checkout.live_checkouts (
  reservation_id text PRIMARY KEY,
  buyer_key      text NOT NULL,
  taken_at       timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS live_checkouts_buyer ON checkout.live_checkouts (buyer_key, expires_at);
