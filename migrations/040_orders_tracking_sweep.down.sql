-- Undoes 040_orders_tracking_sweep.sql. The sweep's bookkeeping is lost (each shipment is asked about again).
DROP TABLE IF EXISTS orders.tracking_checks;
ALTER TABLE orders.orders DROP COLUMN IF EXISTS shiprocket_status_at;
