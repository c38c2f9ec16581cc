-- Undoes 036_order_cancellation.sql.
DELETE FROM checkout.pending_settlements WHERE action = 'return';
ALTER TABLE checkout.pending_settlements DROP CONSTRAINT IF EXISTS pending_settlements_action_check;
ALTER TABLE checkout.pending_settlements
  ADD CONSTRAINT pending_settlements_action_check CHECK (action IN ('commit', 'release'));
ALTER TABLE orders.orders DROP COLUMN IF EXISTS refund_id;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS refund_amount_paise;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS refund_status;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS cancelled_at;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS cancel_reason;
