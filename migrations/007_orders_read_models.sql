-- orders: order numbers, the placement process manager's state, and the read models of the order service.

-- Order numbers shoppers see (ORD-100001, ...). A number taken by a transaction that rolls back is not
-- reused, so numbers can have gaps; they never repeat.
CREATE SEQUENCE IF NOT EXISTS orders.order_number_seq START WITH 100001;

-- Placement (consumer orders.placement): at most one order per provider order. Written in the same
-- transaction as the OrderPlaced append; its primary key is what makes a redelivered or repeated
-- PaymentVerified place no second order, even when two deliveries race. Derivable from OrderPlaced events.
CREATE TABLE IF NOT EXISTS orders.payment_orders (
  razorpay_order_id text PRIMARY KEY,
  order_number      text NOT NULL UNIQUE,
  placed_at         timestamptz NOT NULL
);

-- Projection orders.orders (rebuildable from orders.events): my orders, the admin list, push.
CREATE TABLE IF NOT EXISTS orders.orders (
  order_number          text PRIMARY KEY,
  user_id               text,
  razorpay_order_id     text NOT NULL,
  razorpay_payment_id   text NOT NULL,
  customer_name         text NOT NULL,
  customer_email        text NOT NULL,
  customer_phone        text NOT NULL,
  address               text NOT NULL,
  pincode               text NOT NULL,
  -- the order lines as placed (paise), see OrderLine in services/shared/src/contracts/payment-events.ts
  items                 jsonb NOT NULL,
  subtotal_paise        bigint NOT NULL,
  coupon_code           text,
  discount_paise        bigint NOT NULL,
  shipping_charge_paise bigint NOT NULL,
  delivery_charge_paise bigint NOT NULL,
  total_paise           bigint NOT NULL,
  payment_status        text NOT NULL,
  delivery_status       text NOT NULL,
  seen                  boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_user ON orders.orders (user_id, created_at DESC, order_number DESC);
CREATE INDEX IF NOT EXISTS orders_newest ON orders.orders (created_at DESC, order_number DESC);

-- Also projection orders.orders: figures that outlive the admin list (deleting a delivered order takes it
-- off the list, not out of the revenue). One row.
CREATE TABLE IF NOT EXISTS orders.order_totals (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  orders_placed bigint NOT NULL,
  revenue_paise bigint NOT NULL,
  updated_at    timestamptz NOT NULL
);
