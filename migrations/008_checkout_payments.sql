-- checkout payment read models (rebuildable from checkout.events) and webhook de-duplication
CREATE TABLE IF NOT EXISTS checkout.payment_orders (
  razorpay_order_id text PRIMARY KEY,
  reservation_id    text NOT NULL,
  user_id           text,
  status            text NOT NULL,            -- created | verified | expired
  total_paise       bigint NOT NULL,
  payment_id        text,
  failures          integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_orders_open ON checkout.payment_orders (expires_at) WHERE status = 'created';

-- Razorpay webhook event ids already handled (the provider retries deliveries).
CREATE TABLE IF NOT EXISTS checkout.webhook_events (
  event_id    text PRIMARY KEY,
  event       text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
