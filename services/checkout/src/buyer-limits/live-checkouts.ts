import type pg from 'pg';
import { TooManyRequestsError } from '@shop/shared/errors/errors';

// Advisory-lock class for "one writer of a buyer's live checkouts at a time" (outbox relays hold 727002, coupon
// stream writers 727003; 727001 was the former migration runner's, and migrations now serialise on knex's
// lock row).
const BUYER_LOCK = 727004;

export const TOO_MANY_CHECKOUTS =
  'You have too many unpaid checkouts open; pay for one or wait for one to expire, then try again';
export const TOO_MANY_CHECKOUTS_FROM_ADDRESS =
  'Too many unpaid checkouts are open from your network right now; please try again in a few minutes';

/**
 * How long after it was taken a live-checkout place lapses on its own: the backstop for a checkout whose process
 * died before it could give the place back (twice the hold, plus a minute). The orphan-checkouts job settles such
 * a place only after this.
 */
export const livePlaceBackstopMs = (reservationTtlMs: number): number => 2 * reservationTtlMs + 60_000;

/**
 * The unpaid checkouts each buyer holds stock with (`checkout.live_checkouts`), capped at `max` per buyer so
 * that one caller cannot hold a sale's stock through many checkouts. A place is taken right after the stock
 * is held (a refused place gives the stock back before answering) and given back when the order is paid or
 * expires (settlement consumer) or its checkout fails.
 */
export class LiveCheckouts {
  constructor(
    private readonly pool: pg.Pool,
    private readonly max: number,
    /** Most live checkouts from one client address, all its buyers together (a backstop; NATs are shared). */
    private readonly maxPerAddress: number = Number.MAX_SAFE_INTEGER,
  ) {}

  /**
   * Takes one of the buyer's places for a checkout, or throws TooManyRequestsError (429). Decided under a
   * per-buyer advisory lock, so concurrent checkouts by one buyer (from any process) are counted one after
   * another: never more than `max` at once; then under a per-address lock, never more than `maxPerAddress`
   * from one client address. `expiresAt` is a backstop for a place whose process died.
   */
  async take(
    who: { buyerKey: string; addressKey: string },
    reservationId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    // One round trip: checkout.take_live_checkout (migration 031) locks, counts and inserts.
    const { rows } = await this.pool.query<{ outcome: 'taken' | 'buyer' | 'address' }>(
      'SELECT checkout.take_live_checkout($1, $2, $3, $4, $5, $6, $7, $8) AS outcome',
      [
        reservationId,
        who.buyerKey,
        who.addressKey,
        now.toISOString(),
        expiresAt.toISOString(),
        this.max,
        Math.min(this.maxPerAddress, 2_147_483_647),
        BUYER_LOCK,
      ],
    );
    const outcome = rows[0]?.outcome;
    if (outcome === 'address') throw new TooManyRequestsError(TOO_MANY_CHECKOUTS_FROM_ADDRESS);
    if (outcome !== 'taken') throw new TooManyRequestsError(TOO_MANY_CHECKOUTS);
  }

  /** Notes the provider order of a checkout's place, so that its buyer's next checkout can find it. */
  async attachOrder(reservationId: string, razorpayOrderId: string): Promise<void> {
    await this.pool.query('UPDATE checkout.live_checkouts SET razorpay_order_id = $2 WHERE reservation_id = $1', [
      reservationId,
      razorpayOrderId,
    ]);
  }

  /** The provider orders of the buyer's live checkouts (one indexed query: live_checkouts_buyer). */
  async ordersOf(buyerKey: string, now: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ razorpay_order_id: string }>(
      `SELECT razorpay_order_id FROM checkout.live_checkouts
        WHERE buyer_key = $1 AND expires_at > $2 AND razorpay_order_id IS NOT NULL`,
      [buyerKey, now.toISOString()],
    );
    return rows.map((r) => r.razorpay_order_id);
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
