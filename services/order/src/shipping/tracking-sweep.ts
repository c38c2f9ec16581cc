import type pg from 'pg';
import { NotFoundError } from '@shop/shared/errors/errors';
import type { Logger } from '@shop/shared/observability/logger';
import { CANCELLED, SHIPMENT_CANCELED, type DeliveryStatus } from '../order/events.ts';
import type { Orders } from '../orders.ts';
import type { ShippingProvider } from './shipping-provider.ts';
import { recordTracking } from './tracking-webhook.ts';

/** The job that asks the provider about shipments with no tracking news for a while. */
export const TRACKING_SWEEP_JOB = 'orders.tracking-sweep';
/** How often it runs. */
export const TRACKING_SWEEP_EVERY_MS = 10 * 60_000;
/** A shipment is asked about once it has had no tracking news (webhook or sweep) for this long. */
export const TRACKING_STALE_AFTER_MS = 3 * 3600_000;
/** Shipments asked about per run (the provider is called once each, one after another). */
export const TRACKING_SWEEP_BATCH = 50;
/** Orders with nothing left to track, by their delivery status. */
const ORDER_DONE: string[] = ['Delivered' satisfies DeliveryStatus, CANCELLED];
/**
 * Shipping statuses after which no more scans come: nothing to ask about. A parcel Shiprocket marks LOST is the
 * admin's to settle with the courier (the order stays as it is); asking every threshold would go on forever.
 */
const JOURNEY_OVER = ['DELIVERED', 'RTO DELIVERED', 'LOST', SHIPMENT_CANCELED];

export interface TrackingSweepDeps {
  pool: pg.Pool;
  orders: Orders;
  provider: ShippingProvider;
  clock: () => Date;
  logger: Logger;
  /** TRACKING_STALE_AFTER_MS unless given. */
  staleAfterMs?: number;
  /** TRACKING_SWEEP_BATCH unless given. */
  batchSize?: number;
}

/** What one run did: shipments asked about, updates recorded, answers already recorded or with no scan, failures. */
export interface TrackingSweepResult {
  checked: number;
  recorded: number;
  unchanged: number;
  failed: number;
}

/**
 * The tracking sweep (TRACKING_SWEEP_JOB): Shiprocket's webhook is the way tracking arrives, but it can be lost
 * (Shiprocket gives up after its retries, or the shop's endpoint was down). Each run takes the shipments of orders
 * neither Delivered nor Cancelled whose latest tracking news (orders.orders.shiprocket_status_at, from the events;
 * or the sweep's own last check, orders.tracking_checks) is older than the threshold, the stalest first, a bounded
 * batch; claims them (their check time set now, so another process's run skips them and a parcel with no new scan
 * waits a threshold again); asks the provider (track) and records its answer as the webhook does (recordTracking:
 * once per AWB, status and the provider's time of its latest scan, so what the webhook recorded is not recorded
 * again and a later webhook still applies). The status the order shows already is no news and not recorded (the
 * 'AWB ASSIGNED' of a parcel waiting for pickup; or the webhook's update again, should Shiprocket's scan time and
 * its webhook's current_timestamp ever differ); nor is an answer with no time (the time is the provider's, never
 * made up). A failure on one shipment is logged and kept as its last_error; it is asked again after the
 * threshold, and the others go on. Never throws for a shipment.
 */
export class TrackingSweep {
  constructor(private readonly deps: TrackingSweepDeps) {}

  async run(): Promise<TrackingSweepResult> {
    const { pool, orders, provider, logger } = this.deps;
    const result: TrackingSweepResult = { checked: 0, recorded: 0, unchanged: 0, failed: 0 };
    for (const { order_number: orderNumber, awb, shown } of await this.claimDue()) {
      result.checked++;
      let lastError: string | null = null;
      try {
        const tracking = await provider.track(awb);
        // No news: the status the order shows already (e.g. 'AWB ASSIGNED', as the shipment was made).
        if (tracking.shippingStatus?.trim().toUpperCase() === shown) result.unchanged++;
        else if (!tracking.shippingStatus || !tracking.updatedAt) {
          result.unchanged++;
          if (tracking.shippingStatus)
            logger.warn(
              { orderNumber, awb, status: tracking.shippingStatus },
              'tracking sweep: no scan time; not recorded',
            );
        } else {
          const { recorded } = await recordTracking(orders, orderNumber, {
            awb,
            shippingStatus: tracking.shippingStatus,
            updatedAt: tracking.updatedAt,
            source: 'sweep',
          });
          result[recorded ? 'recorded' : 'unchanged']++;
          if (recorded)
            logger.info({ orderNumber, awb, status: tracking.shippingStatus }, 'tracking sweep recorded an update');
        }
      } catch (err) {
        result.failed++;
        lastError = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
        // The order is gone or no longer has this AWB: nothing to track, not the provider's failure.
        if (err instanceof NotFoundError) logger.info({ orderNumber, awb }, 'tracking sweep: no such shipment now');
        else
          logger.warn(
            { orderNumber, awb, error: lastError },
            'tracking sweep could not track a shipment; asked again later',
          );
      }
      await pool
        .query('UPDATE orders.tracking_checks SET last_error = $2 WHERE order_number = $1', [orderNumber, lastError])
        .catch((err: unknown) => logger.error({ err, orderNumber }, 'tracking sweep could not record its check'));
    }
    if (result.recorded || result.failed) logger.info({ ...result }, 'tracking sweep');
    return result;
  }

  /**
   * The due shipments, the stalest (never checked nor heard of) taken first, each claimed by setting its check
   * time now: a run racing this one on another process re-reads the claimed row and skips it. With the status
   * the order shows (`shown`).
   */
  private async claimDue(): Promise<{ order_number: string; awb: string; shown: string | null }[]> {
    const now = this.deps.clock();
    const staleBefore = new Date(now.getTime() - (this.deps.staleAfterMs ?? TRACKING_STALE_AFTER_MS));
    const { rows } = await this.deps.pool.query<{ order_number: string; awb: string; shown: string | null }>(
      `WITH due AS (
         SELECT o.order_number, o.shiprocket_awb AS awb, o.shiprocket_status AS shown,
                GREATEST(o.shiprocket_status_at, c.checked_at) AS last_news
           FROM orders.orders o
           LEFT JOIN orders.tracking_checks c ON c.order_number = o.order_number
          WHERE o.shiprocket_awb IS NOT NULL
            AND o.delivery_status <> ALL ($3::text[])
            AND (o.shiprocket_status IS NULL OR o.shiprocket_status <> ALL ($4::text[]))
            AND (GREATEST(o.shiprocket_status_at, c.checked_at) IS NULL
                 OR GREATEST(o.shiprocket_status_at, c.checked_at) < $2)
          ORDER BY GREATEST(o.shiprocket_status_at, c.checked_at) NULLS FIRST, o.order_number
          LIMIT $5
       ), claimed AS (
         INSERT INTO orders.tracking_checks AS t (order_number, awb, checked_at)
         SELECT order_number, awb, $1 FROM due
         ON CONFLICT (order_number) DO UPDATE SET awb = EXCLUDED.awb, checked_at = EXCLUDED.checked_at
           WHERE t.checked_at < $2
         RETURNING t.order_number
       )
       SELECT due.order_number, due.awb, due.shown FROM due JOIN claimed USING (order_number)
        ORDER BY due.last_news NULLS FIRST, due.order_number`,
      [now, staleBefore, ORDER_DONE, JOURNEY_OVER, this.deps.batchSize ?? TRACKING_SWEEP_BATCH],
    );
    return rows;
  }
}
