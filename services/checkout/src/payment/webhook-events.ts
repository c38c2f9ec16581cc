import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { UnavailableError } from '@shop/shared/errors/errors';

/** How long a delivery may take before a redelivery may take its event over (a process that died mid-way). */
const LEASE_SECONDS = 120;
/** How long a duplicate waits for the delivery it duplicates to finish before asking to be retried. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

/**
 * Razorpay webhook events, processed once per event id (checkout.webhook_events; the provider delivers at
 * least once, retries, and may deliver one event twice at the same time). `claim` is one atomic statement:
 * of any number of concurrent deliveries exactly one gets the event. A duplicate is answered 'duplicate' only
 * once the event is processed; while the first delivery is still at work it waits for it, so if that one
 * fails (and releases its claim) the duplicate processes the event instead of it being lost.
 */
export class WebhookEvents {
  constructor(private readonly pool: pg.Pool) {}

  /** 'claimed': this delivery processes the event (then `complete` or `release`); 'duplicate': already done. */
  async claim(eventId: string, event: string): Promise<'claimed' | 'duplicate'> {
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const claimed = await this.pool.query(
        `INSERT INTO checkout.webhook_events (event_id, event, claimed_until, processed_at)
         VALUES ($1, $2, now() + make_interval(secs => $3), NULL)
         ON CONFLICT (event_id) DO UPDATE SET claimed_until = EXCLUDED.claimed_until, received_at = now()
           WHERE checkout.webhook_events.processed_at IS NULL AND checkout.webhook_events.claimed_until < now()
         RETURNING event_id`,
        [eventId, event, LEASE_SECONDS],
      );
      if (claimed.rowCount) return 'claimed';
      const { rows } = await this.pool.query<{ processed_at: Date | null }>(
        'SELECT processed_at FROM checkout.webhook_events WHERE event_id = $1',
        [eventId],
      );
      if (rows[0]?.processed_at) return 'duplicate';
      // Released by a failed delivery since: claim it now.
      if (!rows[0]) continue;
      if (Date.now() >= deadline)
        throw new UnavailableError('This webhook event is still being processed; please retry later');
      await sleep(POLL_MS);
    }
  }

  /** The event was processed: every later delivery of it is a duplicate. */
  async complete(eventId: string, outcome: string): Promise<void> {
    await this.pool.query(
      'UPDATE checkout.webhook_events SET processed_at = now(), claimed_until = NULL, outcome = $2 WHERE event_id = $1',
      [eventId, outcome],
    );
  }

  /** Processing failed: the claim is given up, so a redelivery (or a waiting duplicate) processes the event. */
  async release(eventId: string): Promise<void> {
    await this.pool.query('DELETE FROM checkout.webhook_events WHERE event_id = $1 AND processed_at IS NULL', [
      eventId,
    ]);
  }
}
