-- Cancelling a cancelled order's shipment at Shiprocket (or its sandbox).

-- orders.pending_shipment_cancellations: shipments to cancel at the provider, written in the
-- orders.shipment-cancellation consumer's bus transaction when an order with a shipment is cancelled (or a
-- shipment is recorded for an order already cancelled), so none is forgotten. Cancelled after the commit,
-- outside any transaction, by one runner at a time per row (claimed_until is its lease), retried with backoff;
-- cancelling at the provider twice is harmless. ShipmentCancelled removes the row.
-- Command-side work queue, not a read model.
CREATE TABLE IF NOT EXISTS orders.pending_shipment_cancellations (
  order_number    text PRIMARY KEY,
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  last_error      text
);
CREATE INDEX IF NOT EXISTS pending_shipment_cancellations_due
  ON orders.pending_shipment_cancellations (next_attempt_at);
