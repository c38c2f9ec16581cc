-- Undoes 029_checkout_refunds.sql. Refunds decided and not yet issued (checkout.pending_refunds) are lost:
-- roll back only with none pending. After applying 029 again, rebuild the refunds read model with
-- `npm run replay -- checkout.refunds` (its consumer's checkpoint is past the events it holds).
ALTER TABLE checkout.webhook_events DROP COLUMN IF EXISTS outcome;
ALTER TABLE checkout.webhook_events DROP COLUMN IF EXISTS claimed_until;
ALTER TABLE checkout.webhook_events DROP COLUMN IF EXISTS processed_at;
DROP TABLE IF EXISTS razorpay_sandbox.refunds;
DROP TABLE IF EXISTS checkout.pending_refunds;
DROP TABLE IF EXISTS checkout.refunds;
