import type pg from 'pg';
import { withTransaction } from '@shop/shared/db/pool';
import { TooManyRequestsError } from '@shop/shared/errors/errors';

// Advisory-lock class for "one writer of a buyer's live checkouts at a time" (migrations hold 727001, outbox
// relays 727002, coupon stream writers 727003).
const BUYER_LOCK = 727004;

export const TOO_MANY_CHECKOUTS =
  'You have too many unpaid checkouts open; pay for one or wait for one to expire, then try again';

/**
 * The unpaid checkouts each buyer holds stock with (`checkout.live_checkouts`), capped at `max` per buyer so
 * that one caller cannot hold a sale's stock through many checkouts. A place is taken before any stock is
 * held and given back when the order is paid or expires (settlement consumer) or its checkout fails.
 */
export class LiveCheckouts {
  constructor(
    private readonly pool: pg.Pool,
    private readonly max: number,
  ) {}

  /**
   * Takes one of the buyer's places for a checkout, or throws TooManyRequestsError (429). Decided under a
   * per-buyer advisory lock, so concurrent checkouts by one buyer (from any process) are counted one after
   * another: never more than `max` at once. `expiresAt` is a backstop for a place whose process died.
   */
  async take(buyerKey: string, reservationId: string, now: Date, expiresAt: Date): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BUYER_LOCK, buyerKey]);
      // A new statement after the lock: it sees every place the lock's earlier holders committed.
      const taken = await tx.query(
        `WITH lapsed AS (DELETE FROM checkout.live_checkouts WHERE buyer_key = $2 AND expires_at <= $3)
         INSERT INTO checkout.live_checkouts (reservation_id, buyer_key, taken_at, expires_at)
         SELECT $1, $2, $3, $4
          WHERE (SELECT count(*) FROM checkout.live_checkouts WHERE buyer_key = $2 AND expires_at > $3) < $5
         ON CONFLICT (reservation_id) DO NOTHING`,
        [reservationId, buyerKey, now.toISOString(), expiresAt.toISOString(), this.max],
      );
      if (taken.rowCount !== 1) throw new TooManyRequestsError(TOO_MANY_CHECKOUTS);
    });
  }

  /** Gives a checkout's place back (paid, expired, or the checkout failed). Idempotent. */
  async release(
    reservationId: string,
    db: { query: (sql: string, params: unknown[]) => Promise<unknown> } = this.pool,
  ): Promise<void> {
    if (!reservationId) return;
    await db.query('DELETE FROM checkout.live_checkouts WHERE reservation_id = $1', [reservationId]);
  }
}
