-- Shipping with tracking (Shiprocket, or its built-in sandbox).

-- orders.orders: the shipment's AWB, tracking URL and shipping status as the seeds show them (filled by the
-- orders.orders projection from ShipmentCreated / ShippingStatusUpdated; null until a shipment exists).
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS shiprocket_awb text;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS shiprocket_tracking_url text;
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS shiprocket_status text;
CREATE INDEX IF NOT EXISTS orders_by_awb ON orders.orders (shiprocket_awb) WHERE shiprocket_awb IS NOT NULL;

-- orders.pending_shipments: shipments decided (written in the shipping consumer's bus transaction when an
-- order is placed, so none is lost) and not yet created at the provider. Created after the commit, outside
-- any transaction, by one runner at a time per row (claimed_until is its lease), retried with backoff; the
-- order number is the provider's order_id, so a retry finds the shipment an earlier attempt made.
-- Command-side work queue, not a read model.
CREATE TABLE IF NOT EXISTS orders.pending_shipments (
  order_number    text PRIMARY KEY,
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  last_error      text
);
CREATE INDEX IF NOT EXISTS pending_shipments_due ON orders.pending_shipments (next_attempt_at);

-- The built-in Shiprocket sandbox (services/shiprocket-sandbox/): its orders, shipments and their tracking.
-- Test data only: no parcel moves. Not part of any service's event log; nothing is rebuilt from it.
CREATE SCHEMA IF NOT EXISTS shiprocket_sandbox;
CREATE TABLE IF NOT EXISTS shiprocket_sandbox.orders (
  channel_order_id text PRIMARY KEY,                    -- the shop's order_id (its order number)
  order_id         bigint GENERATED ALWAYS AS IDENTITY,  -- Shiprocket's order id
  shipment_id      bigint NOT NULL,
  awb_code         text UNIQUE,
  courier_name     text,
  courier_id       integer,
  current_status   text NOT NULL,
  status_id        integer NOT NULL,
  scans            jsonb NOT NULL DEFAULT '[]',          -- [{date, status, activity, location, sr-status, sr-status-label}]
  body             jsonb NOT NULL,                       -- the create/adhoc request as sent
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS shiprocket_sandbox.shipment_ids START 100000001;
