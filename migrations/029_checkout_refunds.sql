-- Refunds of money taken that cannot become an order (captured after its reservation lapsed, stock gone at
-- verify, or a charged amount that differs from the price at verify).

-- checkout.refunds: read model of the RefundDue / PaymentRefunded events (rebuildable from checkout.events),
-- what admins see at GET /api/payment/admin/refunds.
CREATE TABLE IF NOT EXISTS checkout.refunds (
  razorpay_payment_id text PRIMARY KEY,
  razorpay_order_id   text NOT NULL,
  customer_email      text,
  amount_paise        bigint NOT NULL,
  reason              text NOT NULL,              -- paid_after_expiry | order_refused | amount_mismatch
  detail              text NOT NULL,
  status              text NOT NULL,              -- due | refunded
  refund_id           text,
  due_at              timestamptz NOT NULL,
  refunded_at         timestamptz
);
CREATE INDEX IF NOT EXISTS refunds_by_time ON checkout.refunds (due_at DESC);

-- checkout.pending_refunds: refunds decided (written in the refunding consumer's bus transaction, so none is
-- lost) and not yet issued. Issued after the commit, outside any transaction, by one runner at a time per row
-- (claimed_until is its lease), retried with backoff until the provider has taken it.
-- Command-side work queue, not a read model.
CREATE TABLE IF NOT EXISTS checkout.pending_refunds (
  razorpay_payment_id text PRIMARY KEY,
  razorpay_order_id   text NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  attempts            integer NOT NULL DEFAULT 0,
  next_attempt_at     timestamptz NOT NULL DEFAULT now(),
  claimed_until       timestamptz,
  last_error          text
);
CREATE INDEX IF NOT EXISTS pending_refunds_due ON checkout.pending_refunds (next_attempt_at);

-- The Razorpay sandbox's refunds (Razorpay's refund entity as answered). A payment's amount_refunded,
-- refund_status and status ('refunded' once fully refunded) are derived from these rows when it is read.
CREATE TABLE IF NOT EXISTS razorpay_sandbox.refunds (
  id         text PRIMARY KEY,                -- rfnd_<14 alphanumerics>
  seq        bigint GENERATED ALWAYS AS IDENTITY,
  payment_id text NOT NULL REFERENCES razorpay_sandbox.payments (id) ON DELETE CASCADE,
  amount     bigint NOT NULL,                 -- paise
  entity     jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS refunds_by_payment ON razorpay_sandbox.refunds (payment_id, seq);

-- Webhook de-duplication as one atomic claim: a delivery claims its event id (INSERT ... ON CONFLICT), a
-- lease (claimed_until) lets a redelivery take over from a process that died mid-way, and processed_at marks
-- the event done; a delivery whose processing fails deletes its claim. Rows from before were processed.
ALTER TABLE checkout.webhook_events ADD COLUMN IF NOT EXISTS processed_at timestamptz DEFAULT now();
ALTER TABLE checkout.webhook_events ALTER COLUMN processed_at DROP DEFAULT;
ALTER TABLE checkout.webhook_events ADD COLUMN IF NOT EXISTS claimed_until timestamptz;
ALTER TABLE checkout.webhook_events ADD COLUMN IF NOT EXISTS outcome text;
