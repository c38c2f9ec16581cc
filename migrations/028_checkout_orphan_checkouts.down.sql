-- Undoes 028_checkout_orphan_checkouts.sql (indexes only).
DROP INDEX IF EXISTS checkout.live_checkouts_expiry;
DROP INDEX IF EXISTS checkout.payment_orders_reservation;
DROP INDEX IF EXISTS checkout.events_coupon_use_reservation;
