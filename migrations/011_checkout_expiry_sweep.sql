-- The expiry sweep's bookkeeping (services/checkout/src/settlement/expiry-sweep.ts): open orders it tried and
-- could not settle (the payment provider failed), and when to try each again. Failing orders wait their
-- turn instead of filling every sweep's batch ahead of newer ones. Not a projection: nothing rebuilds it;
-- a row goes once its order is settled.
CREATE TABLE IF NOT EXISTS checkout.expiry_sweep_failures (
  razorpay_order_id text PRIMARY KEY,
  attempts          integer NOT NULL,
  next_attempt_at   timestamptz NOT NULL,
  last_error        text NOT NULL,
  updated_at        timestamptz NOT NULL
);
