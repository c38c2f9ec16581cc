-- Undoes 032_orders_shipping.sql. Shipments decided and not yet created (orders.pending_shipments) are lost:
-- roll back only with none pending. After applying 032 again, rebuild orders.orders with
-- `npm run replay -- orders.orders`.
DROP SEQUENCE IF EXISTS shiprocket_sandbox.shipment_ids;
DROP TABLE IF EXISTS shiprocket_sandbox.orders;
DROP SCHEMA IF EXISTS shiprocket_sandbox;
DROP TABLE IF EXISTS orders.pending_shipments;
DROP INDEX IF EXISTS orders.orders_by_awb;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS shiprocket_status;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS shiprocket_tracking_url;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS shiprocket_awb;
