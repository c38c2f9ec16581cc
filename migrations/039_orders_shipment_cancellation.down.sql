-- Undoes 039_orders_shipment_cancellation.sql. Shipment cancellations decided and not yet made at the provider
-- are lost: roll back only with none pending.
DROP TABLE IF EXISTS orders.pending_shipment_cancellations;
