-- Undoes 031_checkout_checkout_lifecycle.sql (026's take_live_checkout stays).
DROP FUNCTION IF EXISTS checkout.take_live_checkout(text, text, text, timestamptz, timestamptz, integer, integer, integer);
DROP INDEX IF EXISTS checkout.live_checkouts_address;
ALTER TABLE checkout.live_checkouts DROP COLUMN IF EXISTS address_key;
ALTER TABLE checkout.live_checkouts DROP COLUMN IF EXISTS razorpay_order_id;
