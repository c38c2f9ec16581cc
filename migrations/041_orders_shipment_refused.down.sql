-- Undoes 041_orders_shipment_refused.sql. The ShipmentRefused events stay on the order streams.
ALTER TABLE orders.orders DROP COLUMN IF EXISTS shipment_refused_reason;
