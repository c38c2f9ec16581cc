import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { UnavailableError } from '@shop/shared/errors/errors';
import type { TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import type { OrderView } from '../read-models/orders/orders-queries.ts';
import type { OrderTestHost } from '../testing/order-test-host.ts';
import { startShippingTestHost, type ShippingTestHost } from '../testing/shipping-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from '../testing/payments.ts';

let db: TestDatabase;
let host: OrderTestHost;
let sandbox: ShiprocketSandbox;
let admin: string;
let ravi: { userId: string; token: string };
/** What the next cancel call does, set by a test: fail before reaching Shiprocket, or "die" after its answer. */
const nextCancel: ('fail' | 'die')[] = [];
/** Set by a test: runs inside the next createShipment, before Shiprocket is called (the shipment being made). */
let whileCreating: (() => Promise<void>) | null = null;
/** Set by a test: the next shipment is made at Shiprocket, then this process "dies" before recording it. */
let dieAfterNextCreate = false;
const cancelCalls: string[] = [];

let shipping: ShippingTestHost;
beforeAll(async () => {
  shipping = await startShippingTestHost((real) => ({
    ...real,
    async createShipment(request) {
      const hook = whileCreating;
      whileCreating = null;
      await hook?.();
      const shipment = await real.createShipment(request);
      if (dieAfterNextCreate) {
        dieAfterNextCreate = false;
        throw new Error('process killed after Shiprocket made the shipment');
      }
      return shipment;
    },
    async cancelShipment(shipment) {
      cancelCalls.push(shipment.orderNumber);
      const mode = nextCancel.shift();
      if (mode === 'fail') throw new UnavailableError('Shiprocket could not be reached: connect ECONNREFUSED');
      await real.cancelShipment(shipment);
      if (mode === 'die') throw new Error('process killed after Shiprocket cancelled');
    },
  }));
  ({ db, host, sandbox, admin, ravi } = shipping);
});
afterAll(() => shipping?.stop());

const placeOrder = () => placePaidOrder(host.ctx, paymentVerifiedData({ userId: ravi.userId }));
const myOrder = async (n: string) =>
  (await host.api<OrderView[]>('GET', '/api/orders', { token: ravi.token })).body.find((o) => o.orderNumber === n);
const adminOrder = async (n: string) =>
  (await host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body.find((o) => o.orderNumber === n);
const shipped = (n: string) => waitUntil(async () => (await adminOrder(n))?.shiprocketAWB, `a shipment for ${n}`);
const eventTypes = async (n: string) =>
  (await host.ctx.eventStore('orders').readStream(`order-${n}`)).map((e) => e.type);
const atShiprocket = async (n: string) =>
  (
    await db.pool.query<{ current_status: string; scans: { status: string }[] }>(
      'SELECT current_status, scans FROM shiprocket_sandbox.orders WHERE channel_order_id = $1',
      [n],
    )
  ).rows;
const pending = async (n: string) =>
  (
    await db.pool.query<{ attempts: number; last_error: string | null }>(
      'SELECT attempts, last_error FROM orders.pending_shipment_cancellations WHERE order_number = $1',
      [n],
    )
  ).rows[0];
const cancelAsShopper = (n: string) => host.api('POST', `/api/orders/${n}/cancel`, { token: ravi.token });
const cancelAsAdmin = (n: string, reason = 'Customer asked by phone') =>
  host.api('PATCH', `/api/orders/admin/${n}/cancel`, { token: admin, body: { reason } });
/** The shopper's view once the shipment's cancellation is recorded (the job's run, as the retries come due). */
const shipmentCancelled = (n: string) =>
  waitUntil(async () => {
    await host.order.shipmentCancellation!.runner.run();
    const order = await myOrder(n);
    return order?.shiprocketStatus === 'CANCELED' ? order : null;
  }, `the shipment of ${n} to be cancelled`);

describe('cancelling the shipment of a cancelled order', () => {
  it('cancels the shipment at Shiprocket when the shopper cancels, and shows it CANCELED', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    expect((await cancelAsShopper(n)).status).toBe(200);
    const order = await shipmentCancelled(n);
    expect(order).toMatchObject({ deliveryStatus: 'Cancelled', shiprocketAWB: awb, shiprocketStatus: 'CANCELED' });
    expect((await adminOrder(n))?.shiprocketStatus).toBe('CANCELED');
    expect(await atShiprocket(n)).toEqual([expect.objectContaining({ current_status: 'CANCELED' }) as unknown]);
    expect(await eventTypes(n)).toEqual(['OrderPlaced', 'ShipmentCreated', 'OrderCancelled', 'ShipmentCancelled']);
    expect(await pending(n)).toBeUndefined();
    // The courier cannot move it any more.
    await expect(sandbox.advance(awb)).rejects.toThrow(/cancelled/);
  });

  it('cancels once when the first call fails and the process dies between Shiprocket cancelling and the record', async () => {
    const n = await placeOrder();
    await shipped(n);
    nextCancel.push('fail', 'die');
    expect((await cancelAsAdmin(n)).status).toBe(200);
    // Shiprocket has cancelled it (second call); the shop has not recorded it and keeps it pending.
    await waitUntil(async () => (await atShiprocket(n))[0]?.current_status === 'CANCELED', 'Shiprocket to cancel');
    await waitUntil(async () => ((await pending(n))?.attempts ?? 0) >= 2, 'both failures to be recorded for a retry');
    expect(await eventTypes(n)).not.toContain('ShipmentCancelled');
    // The retry asks Shiprocket again (already cancelled: fine) and records it.
    await shipmentCancelled(n);
    expect(cancelCalls.filter((c) => c === n)).toHaveLength(3);
    const [row] = await atShiprocket(n);
    expect(row!.scans.map((s) => s.status)).toEqual(['AWB ASSIGNED', 'CANCELED']);
    expect((await eventTypes(n)).filter((t) => t === 'ShipmentCancelled')).toHaveLength(1);
    expect(await pending(n)).toBeUndefined();
  });

  it('cancels the parcel of an attempt that died before recording its shipment, when the order is cancelled meanwhile', async () => {
    dieAfterNextCreate = true;
    const n = await placeOrder();
    // Shiprocket has the parcel (an AWB, a courier booked); the shop never recorded it.
    await waitUntil(async () => (await atShiprocket(n))[0]?.current_status === 'AWB ASSIGNED', 'Shiprocket to ship');
    await waitUntil(
      async () =>
        (await db.pool.query('SELECT 1 FROM orders.pending_shipments WHERE order_number = $1 AND attempts > 0', [n]))
          .rowCount,
      'the failed attempt to be recorded for a retry',
    );
    // The retry comes due only after the cancel (held back here, so a loaded box cannot run it first).
    const retryAt = (at: string) =>
      db.pool.query(`UPDATE orders.pending_shipments SET next_attempt_at = ${at} WHERE order_number = $1`, [n]);
    await retryAt("now() + interval '1 hour'");
    expect((await cancelAsShopper(n)).status).toBe(200);
    await retryAt('now()');
    // The retry does not ship a cancelled order: it finds the parcel in Shiprocket's order list and records it,
    // and the shipment cancellation cancels it.
    await waitUntil(async () => {
      await host.order.shipments!.run();
      return (await eventTypes(n)).includes('ShipmentCreated');
    }, 'the parcel made before the cancel to be recorded');
    await shipmentCancelled(n);
    expect(await eventTypes(n)).toEqual(['OrderPlaced', 'OrderCancelled', 'ShipmentCreated', 'ShipmentCancelled']);
    expect(await atShiprocket(n)).toEqual([expect.objectContaining({ current_status: 'CANCELED' }) as unknown]);
    expect((await db.pool.query('SELECT 1 FROM orders.pending_shipments WHERE order_number = $1', [n])).rowCount).toBe(
      0,
    );
  });

  it('cancels a shipment made while the cancel landed (recorded after OrderCancelled)', async () => {
    let cancelled: Promise<number> | null = null;
    whileCreating = async () => {
      // The order was still Processing when the shipment was decided; the shopper cancels now.
      const orderNumber = (
        await db.pool.query<{ order_number: string }>(
          'SELECT order_number FROM orders.pending_shipments ORDER BY created_at DESC LIMIT 1',
        )
      ).rows[0]!.order_number;
      cancelled = cancelAsAdmin(orderNumber, 'Ordered twice').then((r) => r.status);
      await cancelled;
    };
    const n = await placeOrder();
    await waitUntil(() => cancelled, 'the cancel to land while the shipment is being made');
    expect(await cancelled).toBe(200);
    await shipmentCancelled(n);
    expect(await eventTypes(n)).toEqual(['OrderPlaced', 'OrderCancelled', 'ShipmentCreated', 'ShipmentCancelled']);
    expect((await atShiprocket(n))[0]?.current_status).toBe('CANCELED');
    // The order-mail reactor past the shipment: the shopper got the cancellation, and no "has shipped" mail.
    await waitUntil(
      async () =>
        (
          await db.pool.query<{ past: boolean }>(
            `SELECT coalesce((SELECT global_position FROM orders.checkpoints
                               WHERE consumer = 'orders.order-mails' AND source = 'orders'), 0)
                    >= (SELECT global_position FROM orders.events WHERE stream_id = $1 AND type = 'ShipmentCreated')
                    AS past`,
            [`order-${n}`],
          )
        ).rows[0]!.past,
      'the order-mail reactor past the shipment',
    );
    const kinds = await db.pool.query<{ kind: string }>('SELECT kind FROM orders.outgoing_mail WHERE about = $1', [n]);
    expect(kinds.rows.map((r) => r.kind).sort()).toEqual(['cancelled', 'order-placed']);
  });

  it("leaves a shipment the courier already has to the admin: Shiprocket's refusal is parked, not retried", async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    await sandbox.advance(awb);
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'PICKED UP', 'the pickup webhook');
    expect((await cancelAsAdmin(n, 'Wrong address')).status).toBe(200);
    const parked = await waitUntil(async () => (await pending(n))?.last_error, 'the refusal to be recorded');
    expect(parked).toMatch(/cannot be cancelled: its shipment is PICKED UP/);
    const calls = cancelCalls.filter((c) => c === n).length;
    await host.order.shipmentCancellation!.runner.run();
    expect(cancelCalls.filter((c) => c === n)).toHaveLength(calls);
    expect(await eventTypes(n)).not.toContain('ShipmentCancelled');
    expect((await adminOrder(n))?.shiprocketStatus).toBe('PICKED UP');
  });
});
