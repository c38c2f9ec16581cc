import type pg from 'pg';

/** One hold of a reservation: which stock stream holds it, under which hold id. */
export interface HoldRef {
  holdId: string;
  productId: string;
  stockSize: string | null;
}

/**
 * The holds a reservation took, read from the catalog's own log (the StockReserved events whose hold id is
 * `<reservationId>#<line>`, indexed by migration 025): never behind, unlike a read model, so a commit or
 * release right after the hold finds it. A hold taken again after it lapsed is one hold.
 */
export async function holdsOfReservation(db: pg.Pool, reservationId: string): Promise<HoldRef[]> {
  const { rows } = await db.query<{ hold_id: string; product_id: string; size: string | null }>(
    `SELECT DISTINCT data->>'reservationId' AS hold_id, data->>'productId' AS product_id, data->>'size' AS size
       FROM catalog.events
      WHERE type = 'StockReserved' AND split_part(data->>'reservationId', '#', 1) = $1`,
    [reservationId],
  );
  return rows.map((r) => ({ holdId: r.hold_id, productId: r.product_id, stockSize: r.size }));
}
