-- Taking a buyer's live-checkout place in one round trip: the per-buyer advisory lock, then the count and
-- insert. A VOLATILE PL/pgSQL function under READ COMMITTED takes a new snapshot for each statement, so the
-- count after the lock sees every place committed by the lock's earlier holders (as the former
-- lock-then-insert transaction did). The lock is held until the calling statement's transaction ends.
CREATE OR REPLACE FUNCTION checkout.take_live_checkout(
  p_reservation text, p_buyer text, p_now timestamptz, p_expires timestamptz, p_max integer, p_lock_class integer
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  taken integer;
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_class, hashtext(p_buyer));
  DELETE FROM checkout.live_checkouts WHERE buyer_key = p_buyer AND expires_at <= p_now;
  INSERT INTO checkout.live_checkouts (reservation_id, buyer_key, taken_at, expires_at)
    SELECT p_reservation, p_buyer, p_now, p_expires
     WHERE (SELECT count(*) FROM checkout.live_checkouts WHERE buyer_key = p_buyer AND expires_at > p_now) < p_max
    ON CONFLICT (reservation_id) DO NOTHING;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN taken = 1;
END
$$;
