import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiprocketTimestamp, type ShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { UnavailableError } from '@shop/shared/errors/errors';
import type { TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import type { OrderView } from '../read-models/orders/orders-queries.ts';
import type { OrderTestHost } from '../testing/order-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from '../testing/payments.ts';
import { startShippingTestHost, type ShippingTestHost } from '../testing/shipping-test-host.ts';
import type { ShippingProvider } from './shipping-provider.ts';
import { TRACKING_STALE_AFTER_MS, TrackingSweep } from './tracking-sweep.ts';

let db: TestDatabase;
let host: OrderTestHost;
let sandbox: ShiprocketSandbox;
let admin: string;
let ravi: { userId: string; token: string };
let shipping: ShippingTestHost;
/** The adapter to the sandbox the service uses, with this spec's faults: track() fails for these AWBs. */
let provider: ShippingProvider;
const trackFails = new Set<string>();
/** How far ahead of the real time sweepLater runs (each run a threshold further: all is stale again). */
let ahead = 0;

beforeAll(async () => {
  shipping = await startShippingTestHost(
    (real) =>
      (provider = {
        ...real,
        async track(awb) {
          if (trackFails.has(awb)) throw new UnavailableError('Shiprocket could not be reached: connect ECONNREFUSED');
          return real.track(awb);
        },
      }),
  );
  ({ db, host, sandbox, admin, ravi } = shipping);
});
afterAll(() => shipping?.stop());

/**
 * A run of the sweep as the service makes it (its threshold and batch), with the service's provider, at `clock`.
 * The service's own job runs every few minutes on the real clock, so finds nothing stale while the spec runs.
 */
const sweepAt = (clock: () => Date) =>
  new TrackingSweep({ pool: host.ctx.pool, orders: host.order.orders, provider, clock, logger: host.ctx.logger }).run();
/** Runs the sweep a threshold after the last run: every shipment not heard of since is due. */
const sweepLater = () => {
  const at = (ahead += TRACKING_STALE_AFTER_MS + 60_000);
  return sweepAt(() => new Date(Date.now() + at));
};
const placeOrder = () => placePaidOrder(host.ctx, paymentVerifiedData({ userId: ravi.userId }));
const adminOrder = async (n: string) =>
  (await host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body.find((o) => o.orderNumber === n);
const shipped = (n: string) => waitUntil(async () => (await adminOrder(n))?.shiprocketAWB, `a shipment for ${n}`);
const eventsOf = async (n: string) =>
  (await host.ctx.eventStore('orders').readStream(`order-${n}`)).map((e) => ({
    type: e.type,
    data: e.data as Record<string, string>,
  }));
const trackingOf = async (n: string) =>
  (await eventsOf(n))
    .filter((e) => e.type === 'ShippingStatusUpdated' || e.type === 'DeliveryStatusChanged')
    .map((e) =>
      e.type === 'DeliveryStatusChanged' ? `→ ${e.data.to}` : `${e.data.shippingStatus} (${e.data.source})`,
    );
const checkOf = async (n: string) =>
  (
    await db.pool.query<{ checked_at: Date; last_error: string | null }>(
      'SELECT checked_at, last_error FROM orders.tracking_checks WHERE order_number = $1',
      [n],
    )
  ).rows[0];
const deliveryStatus = (n: string, status: string) =>
  waitUntil(async () => (await adminOrder(n))?.deliveryStatus === status, `${n} ${status}`);

describe('the tracking sweep', () => {
  it("records Out for Delivery, then Delivered, from Shiprocket's tracking when the webhooks are lost", async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    shipping.lostWebhooks.add(awb);
    await sandbox.advance(awb); // PICKED UP
    await sandbox.advance(awb); // IN TRANSIT
    const outForDelivery = await sandbox.advance(awb);
    expect(outForDelivery.currentStatus).toBe('OUT FOR DELIVERY');
    // Fresh news (the shipment was just made): not asked about yet.
    await sweepAt(() => new Date());
    expect(await checkOf(n)).toBeUndefined();
    expect(await trackingOf(n)).toEqual([]);

    await sweepLater();
    expect(await trackingOf(n)).toEqual(['OUT FOR DELIVERY (sweep)', '→ Out for Delivery']);
    await deliveryStatus(n, 'Out for Delivery');
    expect((await adminOrder(n))?.shiprocketStatus).toBe('OUT FOR DELIVERY');
    // The lost webhook, redelivered at last, is the same update (AWB, status, Shiprocket's time): a duplicate.
    const late = await fetch(`${host.url}/api/orders/tracking-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': shipping.webhookToken },
      body: JSON.stringify({
        awb,
        order_id: n,
        current_status: 'OUT FOR DELIVERY',
        current_timestamp: shiprocketTimestamp(outForDelivery.updatedAt),
      }),
    });
    expect(await late.json()).toEqual({ status: 'duplicate' });

    expect((await sandbox.advance(awb)).currentStatus).toBe('DELIVERED');
    await sweepLater();
    await deliveryStatus(n, 'Delivered');
    expect(await trackingOf(n)).toEqual([
      'OUT FOR DELIVERY (sweep)',
      '→ Out for Delivery',
      'DELIVERED (sweep)',
      '→ Delivered',
    ]);
    // Delivered: never asked about again.
    const lastCheck = await checkOf(n);
    await sweepLater();
    expect(await checkOf(n)).toEqual(lastCheck);
  });

  it('records nothing again that the webhook recorded, and a later webhook still applies', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    for (let i = 0; i < 3; i++) await sandbox.advance(awb);
    await deliveryStatus(n, 'Out for Delivery');
    const before = await eventsOf(n);
    // Asked, and Shiprocket answers what the webhook brought: nothing is recorded.
    await sweepLater();
    expect(await checkOf(n)).toMatchObject({ last_error: null });
    expect(await eventsOf(n)).toEqual(before);
    await sandbox.advance(awb);
    await deliveryStatus(n, 'Delivered');
    expect(await trackingOf(n)).toEqual([
      'PICKED UP (webhook)',
      'IN TRANSIT (webhook)',
      'OUT FOR DELIVERY (webhook)',
      '→ Out for Delivery',
      'DELIVERED (webhook)',
      '→ Delivered',
    ]);
  });

  it('asks no more about a parcel Shiprocket lost, once the loss is recorded', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    await sandbox.advance(awb); // PICKED UP
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'PICKED UP', `${n} picked up`);
    shipping.lostWebhooks.add(awb);
    expect((await sandbox.advance(awb, 'LOST')).currentStatus).toBe('LOST');
    await sweepLater();
    expect(await trackingOf(n)).toEqual(['PICKED UP (webhook)', 'LOST (sweep)']);
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'LOST', `${n} shown as lost`);
    const lastCheck = await checkOf(n);
    expect(lastCheck).toMatchObject({ last_error: null });
    await sweepLater();
    expect(await checkOf(n)).toEqual(lastCheck);
  });

  it('goes on with the other shipments when tracking one fails, and asks about that one again later', async () => {
    const failing = await placeOrder();
    const other = await placeOrder();
    const waiting = await placeOrder();
    const [failingAwb, otherAwb] = [await shipped(failing), await shipped(other), await shipped(waiting)];
    for (const awb of [failingAwb, otherAwb]) {
      shipping.lostWebhooks.add(awb);
      await sandbox.advance(awb);
    }
    trackFails.add(failingAwb);
    const result = await sweepLater();
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(await trackingOf(other)).toEqual(['PICKED UP (sweep)']);
    expect(await trackingOf(failing)).toEqual([]);
    expect((await checkOf(failing))?.last_error).toMatch(/could not be reached/);
    // Still waiting for pickup: asked, and 'AWB ASSIGNED', which the order shows already, is no news.
    expect(await checkOf(waiting)).toMatchObject({ last_error: null });
    expect(await trackingOf(waiting)).toEqual([]);

    trackFails.delete(failingAwb);
    await sweepLater();
    expect(await trackingOf(failing)).toEqual(['PICKED UP (sweep)']);
    expect(await checkOf(failing)).toMatchObject({ last_error: null });
  });
});
