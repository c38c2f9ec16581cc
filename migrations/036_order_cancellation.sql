-- Cancellation and refunds of placed orders (issue 26, part 4).

-- orders.orders (projection orders.orders): why and when an order was cancelled, and its refund as the
-- provider took it (refund_status Pending from OrderCancelled, Refunded from OrderRefunded).
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS cancel_reason text;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS cancelled_at timestamptz;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS refund_status text;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS refund_amount_paise bigint;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS refund_id text;

-- checkout.pending_settlements: a cancelled order's sale is returned (its stock back, its coupon use given back).
ALTER TABLE checkout.pending_settlements DROP CONSTRAINT IF EXISTS pending_settlements_action_check;
ALTER TABLE checkout.pending_settlements
  ADD CONSTRAINT pending_settlements_action_check CHECK (action IN ('commit', 'release', 'return'));
