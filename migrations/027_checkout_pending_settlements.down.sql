-- Undoes 027_checkout_pending_settlements.sql. Settlements decided and not yet carried out are lost: roll
-- back only with none pending (SELECT count(*) FROM checkout.pending_settlements).
DROP TABLE IF EXISTS checkout.pending_settlements;
