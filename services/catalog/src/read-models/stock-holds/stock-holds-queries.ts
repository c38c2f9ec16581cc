import type pg from 'pg';

export interface LapsedHold {
  holdId: string;
  productId: string;
  size: string | null;
}

/** Live holds whose backstop expiry has passed, oldest first. */
export async function lapsedHolds(db: pg.Pool, now: Date, limit: number): Promise<LapsedHold[]> {
  const { rows } = await db.query<{ hold_id: string; product_id: string; size: string | null }>(
    `SELECT hold_id, product_id, size FROM catalog.stock_holds WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => ({ holdId: r.hold_id, productId: r.product_id, size: r.size }));
}
