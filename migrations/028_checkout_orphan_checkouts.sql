-- A checkout that died between holding a coupon use and recording its payment order leaves the use held
-- and its live-checkout place taken: the orphan sweep finds such places (lapsed, no payment order) and
-- gives back their coupon uses, found by reservation id in the log.
CREATE INDEX IF NOT EXISTS events_coupon_use_reservation
  ON checkout.events ((data->>'reservationId'))
  WHERE type = 'CouponUseReserved';
CREATE INDEX IF NOT EXISTS payment_orders_reservation ON checkout.payment_orders (reservation_id);
CREATE INDEX IF NOT EXISTS live_checkouts_expiry ON checkout.live_checkouts (expires_at);
