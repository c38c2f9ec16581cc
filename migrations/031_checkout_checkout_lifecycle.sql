-- Checkout lifecycle (issues 22 and 27): a buyer's live checkouts are found by buyer key in one indexed query
-- (live_checkouts_buyer) to cancel or replace them, so each row learns its provider order id once the order
-- exists (NULL while its create-order is under way). Guests are counted per signed guest cookie now, so the
-- client address is only a much larger backstop: each row keeps a keyed hash of it (address_key), counted
-- by take_live_checkout under a second advisory lock.
ALTER TABLE checkout.live_checkouts ADD COLUMN IF NOT EXISTS razorpay_order_id text;
ALTER TABLE checkout.live_checkouts ADD COLUMN IF NOT EXISTS address_key text;
CREATE INDEX IF NOT EXISTS live_checkouts_address ON checkout.live_checkouts (address_key, expires_at)
  WHERE address_key IS NOT NULL;

-- Takes a place when the buyer holds fewer than p_max live ones and their client address fewer than
-- p_max_address. Locks: the buyer's, then the address's (always in that order: no deadlock).
CREATE OR REPLACE FUNCTION checkout.take_live_checkout(
  p_reservation text, p_buyer text, p_address text, p_now timestamptz, p_expires timestamptz,
  p_max integer, p_max_address integer, p_lock_class integer
) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  taken integer;
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_class, hashtext(p_buyer));
  DELETE FROM checkout.live_checkouts WHERE buyer_key = p_buyer AND expires_at <= p_now;
  IF (SELECT count(*) FROM checkout.live_checkouts WHERE buyer_key = p_buyer AND expires_at > p_now) >= p_max THEN
    RETURN 'buyer';
  END IF;
  PERFORM pg_advisory_xact_lock(p_lock_class, hashtext('address|' || p_address));
  IF (SELECT count(*) FROM checkout.live_checkouts WHERE address_key = p_address AND expires_at > p_now)
       >= p_max_address THEN
    RETURN 'address';
  END IF;
  INSERT INTO checkout.live_checkouts (reservation_id, buyer_key, address_key, taken_at, expires_at)
    VALUES (p_reservation, p_buyer, p_address, p_now, p_expires)
    ON CONFLICT (reservation_id) DO NOTHING;
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN CASE WHEN taken = 1 THEN 'taken' ELSE 'buyer' END;
END
$$;
