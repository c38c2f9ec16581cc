-- The tracking sweep (services/order/src/shipping/tracking-sweep.ts): asks Shiprocket for the tracking of shipments
-- that have had no tracking news for a while (a webhook lost, or the shop's endpoint down when it came).

-- orders.orders (projection orders.orders): the time of the shipment's latest tracking news, from the events only
-- (ShipmentCreated's createdAt, then the latest ShippingStatusUpdated's updatedAt, the provider's time of it). Null
-- for orders shipped before this migration until `npm run replay -- orders.orders` (the sweep treats null as due).
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS shiprocket_status_at timestamptz;

-- orders.tracking_checks: when the sweep last asked Shiprocket about an order's shipment, and what went wrong
-- (null: it answered). The sweep's own bookkeeping, so a parcel with no new scan is asked again only after the
-- threshold, not at every run: command-side, not a read model, not rebuilt by replay.
CREATE TABLE IF NOT EXISTS orders.tracking_checks (
  order_number text PRIMARY KEY,
  awb          text NOT NULL,
  checked_at   timestamptz NOT NULL,
  last_error   text
);
