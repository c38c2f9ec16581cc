-- Settlements the settlement consumer decided but has not yet carried out: commit or release a reservation
-- in the catalog and count or give back a coupon use. Written in the consumer's bus transaction (so a
-- decided settlement is never lost); carried out after the commit, outside any transaction, and retried
-- with backoff until the catalog and the coupons slice have taken it (both idempotent).
-- Command-side work queue, not a read model.
CREATE TABLE IF NOT EXISTS checkout.pending_settlements (
  reservation_id  text NOT NULL,
  action          text NOT NULL CHECK (action IN ('commit', 'release')),
  coupon_code     text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  PRIMARY KEY (reservation_id, action)
);
CREATE INDEX IF NOT EXISTS pending_settlements_due ON checkout.pending_settlements (next_attempt_at);
