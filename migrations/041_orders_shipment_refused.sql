-- A shipment the shipping provider refused (services/order/src/shipping/shipments.ts: a permanent refusal, e.g.
-- Shiprocket's 422 'The billing pincode must be 6 digits.'): its pending row is parked, not retried, and the order
-- stream records ShipmentRefused.

-- orders.orders (projection orders.orders): the provider's words of the refusal, from the events only (ShipmentRefused
-- sets it, a later ShipmentCreated clears it); null when nothing was refused. The admin's orders page shows it.
ALTER TABLE orders.orders ADD COLUMN IF NOT EXISTS shipment_refused_reason text;
