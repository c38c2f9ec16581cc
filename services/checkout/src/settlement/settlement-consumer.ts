import type pg from 'pg';
import { PendingRows, pendingWorkRetryAt } from '@shop/shared/bus/pending-work';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { InventoryPort } from '@shop/shared/contracts/inventory';
import type { PaymentEvent, PaymentOrderCreated } from '@shop/shared/contracts/payment-events';
import type { Logger } from '@shop/shared/observability/logger';
import type { LiveCheckouts } from '../buyer-limits/live-checkouts.ts';
import type { CouponUses } from '../payment/ports.ts';

export const SETTLEMENT_CONSUMER = 'checkout.settlement';
/** The job that carries out settlements left pending (a failed call, or a process that died after commit). */
export const SETTLE_PENDING_JOB = 'checkout.settle-pending';

/**
 * Turns a recorded payment into a sale (reservation committed, coupon use counted) and an expired one into
 * released holds; either way the buyer's live-checkout place is given back. Inside the bus transaction it
 * only records what to do (checkout.pending_settlements) and returns true; the calls to the catalog and the
 * coupons slice happen after the commit (afterCommit kicks `settlements.run`), never inside a transaction of
 * up to 500 events.
 */
export function settlementConsumer(deps: {
  liveCheckouts: LiveCheckouts;
  settlements: PendingSettlements;
  loadOrder: (orderId: string) => Promise<PaymentOrderCreated['data'] | null>;
}): EventConsumer<true> {
  return {
    name: SETTLEMENT_CONSUMER,
    schema: 'checkout',
    sources: ['checkout'],
    eventTypes: ['PaymentVerified', 'PaymentOrderExpired'],
    async handle(event, tx) {
      const e = { type: event.type, data: event.data } as PaymentEvent;
      if (e.type === 'PaymentVerified') {
        await deps.liveCheckouts.release(e.data.reservationId, tx);
        await deps.settlements.record(tx, e.data.reservationId, 'commit', e.data.couponCode);
      } else if (e.type === 'PaymentOrderExpired') {
        await deps.liveCheckouts.release(e.data.reservationId, tx);
        const order = await deps.loadOrder(e.data.razorpayOrderId);
        await deps.settlements.record(tx, e.data.reservationId, 'release', order?.couponCode ?? null);
      }
      return true;
    },
    afterCommit() {
      deps.settlements.kick();
    },
  };
}

/** return: a cancelled order's sale is given back (stock, and the coupon use if the coupon allows it). */
type Action = 'commit' | 'release' | 'return';

interface DueSettlement {
  reservation_id: string;
  action: Action;
  coupon_code: string | null;
  attempts: number;
}

/**
 * The settlements decided and not yet carried out. `run` takes the due ones oldest first and calls the
 * inventory and coupons (idempotent: a settlement carried out twice does no harm); one that fails waits
 * 1 s, doubling up to 5 minutes (PENDING_WORK_RETRY), and never holds up the others.
 */
export class PendingSettlements extends PendingRows<DueSettlement> {
  constructor(
    private readonly deps: {
      pool: pg.Pool;
      inventory: InventoryPort;
      coupons: CouponUses;
      logger: Logger;
      clock: () => Date;
    },
  ) {
    super(200, (err) => deps.logger.error({ err }, 'settling payments failed'));
  }

  async record(tx: pg.PoolClient, reservationId: string, action: Action, couponCode: string | null): Promise<void> {
    await tx.query(
      `INSERT INTO checkout.pending_settlements (reservation_id, action, coupon_code, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $4) ON CONFLICT (reservation_id, action) DO NOTHING`,
      [reservationId, action, couponCode, this.deps.clock()],
    );
  }

  /** The due settlements, oldest first: a reservation's settlements are carried out in the order decided. */
  protected async due(limit: number): Promise<DueSettlement[]> {
    const { rows } = await this.deps.pool.query<DueSettlement>(
      `SELECT reservation_id, action, coupon_code, attempts FROM checkout.pending_settlements
        WHERE next_attempt_at <= $1 ORDER BY created_at, action LIMIT ${limit}`,
      [this.deps.clock()],
    );
    return rows;
  }

  protected async carryOut(r: DueSettlement): Promise<boolean> {
    const { inventory, coupons, pool } = this.deps;
    try {
      if (r.action === 'commit') {
        await inventory.commit(r.reservation_id);
        if (r.coupon_code) await coupons.commitUse(r.coupon_code, r.reservation_id);
      } else if (r.action === 'return') {
        await inventory.returnSale(r.reservation_id);
        if (r.coupon_code) await coupons.returnUse(r.coupon_code, r.reservation_id);
      } else {
        await inventory.release(r.reservation_id, 'expired');
        if (r.coupon_code) await coupons.releaseUse(r.coupon_code, r.reservation_id);
      }
      await pool.query(`DELETE FROM checkout.pending_settlements WHERE reservation_id = $1 AND action = $2`, [
        r.reservation_id,
        r.action,
      ]);
      return true;
    } catch (err) {
      this.deps.logger.warn(
        { err, reservationId: r.reservation_id, action: r.action, attempts: r.attempts + 1 },
        'settlement failed; it will be retried',
      );
      await pool
        .query(
          `UPDATE checkout.pending_settlements SET attempts = attempts + 1, next_attempt_at = $3, last_error = $4
            WHERE reservation_id = $1 AND action = $2`,
          [r.reservation_id, r.action, pendingWorkRetryAt(this.deps.clock(), r.attempts), String(err).slice(0, 500)],
        )
        .catch(() => undefined);
      return false;
    }
  }
}
