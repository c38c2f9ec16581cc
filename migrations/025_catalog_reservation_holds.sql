-- A reservation's holds by its id (the catalog commits or releases a reservation by id alone): the
-- StockReserved events whose hold id is '<reservationId>#<line>'.
CREATE INDEX IF NOT EXISTS events_stock_reservation
  ON catalog.events ((split_part(data->>'reservationId', '#', 1)))
  WHERE type = 'StockReserved';
