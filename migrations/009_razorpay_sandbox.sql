-- The built-in Razorpay sandbox (services/razorpay-sandbox/) keeps its orders and
-- payments here, so a restarted shop's sandbox still knows the orders it made (and which were paid).
-- Test data only: no money moves. Not part of any service's event log; nothing is rebuilt from it.
CREATE SCHEMA IF NOT EXISTS razorpay_sandbox;

CREATE TABLE IF NOT EXISTS razorpay_sandbox.orders (
  id          text PRIMARY KEY,              -- order_<14 alphanumerics>
  amount      bigint NOT NULL,               -- paise
  amount_paid bigint NOT NULL DEFAULT 0,
  currency    text NOT NULL,
  receipt     text,
  status      text NOT NULL,                 -- created | attempted | paid
  attempts    integer NOT NULL DEFAULT 0,
  notes       jsonb NOT NULL,                -- as Razorpay answers it: an object, or [] for none
  created_at  bigint NOT NULL                -- unix seconds
);

CREATE TABLE IF NOT EXISTS razorpay_sandbox.payments (
  id       text PRIMARY KEY,                 -- pay_<14 alphanumerics>
  seq      bigint GENERATED ALWAYS AS IDENTITY,
  order_id text NOT NULL REFERENCES razorpay_sandbox.orders (id) ON DELETE CASCADE,
  entity   jsonb NOT NULL                    -- the payment entity as the API answers it (never changed)
);
CREATE INDEX IF NOT EXISTS payments_by_order ON razorpay_sandbox.payments (order_id, seq);
