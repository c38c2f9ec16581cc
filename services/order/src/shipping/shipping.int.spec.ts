import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '@shop/shared/errors/errors';
import { shiprocketTimestamp, type ShiprocketSandbox, type ShiprocketStatus } from '@shop/shiprocket-sandbox';
import type { TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import type { OrderView } from '../read-models/orders/orders-queries.ts';
import type { OrderPlaced } from '../order/events.ts';
import type { OrderTestHost } from '../testing/order-test-host.ts';
import { startShippingTestHost, type ShippingTestHost } from '../testing/shipping-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from '../testing/payments.ts';
import type { ShippingProvider } from './shipping-provider.ts';
import { shipmentRequest } from './shipments.ts';

let db: TestDatabase;
let host: OrderTestHost;
let sandbox: ShiprocketSandbox;
let admin: string;
let ravi: { userId: string; token: string };
let token: string;
let shipping: ShippingTestHost;
/** Set by a test: the next shipment is made at the provider, then this process "dies" before recording it. */
let dieAfterNextCall = false;
/** Set by a test: Shiprocket is down (every shipment call fails as an outage) until it is cleared. */
let outage = false;
/** The real Shiprocket adapter (to the sandbox), without the faults above. */
let provider: ShippingProvider;

beforeAll(async () => {
  shipping = await startShippingTestHost((real) => {
    provider = real;
    return {
      ...real,
      async createShipment(request) {
        if (outage) throw new UnavailableError('Shiprocket refused /orders/create/adhoc (503): Service Unavailable');
        const shipment = await real.createShipment(request);
        if (dieAfterNextCall) {
          dieAfterNextCall = false;
          throw new Error('process killed after the provider answered');
        }
        return shipment;
      },
    };
  });
  ({ db, host, sandbox, admin, ravi, webhookToken: token } = shipping);
});
afterAll(() => shipping?.stop());

const placeOrder = (pincode?: string) =>
  placePaidOrder(host.ctx, paymentVerifiedData({ userId: ravi.userId, ...(pincode ? { pincode } : {}) }));
/** The order's row of orders.pending_shipments (null: none). */
const pendingShipment = async (n: string) =>
  (
    await db.pool.query<{ attempts: number; parked: boolean; last_error: string | null }>(
      `SELECT attempts, next_attempt_at = 'infinity' AS parked, last_error FROM orders.pending_shipments
        WHERE order_number = $1`,
      [n],
    )
  ).rows[0] ?? null;
const adminOrder = async (n: string) =>
  (await host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body.find((o) => o.orderNumber === n);
const myOrder = async (n: string) =>
  (await host.api<OrderView[]>('GET', '/api/orders', { token: ravi.token })).body.find((o) => o.orderNumber === n);
const eventsOf = async (n: string) =>
  (await host.ctx.eventStore('orders').readStream(`order-${n}`)).map((e) => ({
    type: e.type,
    data: e.data as Record<string, string>,
  }));
const shipped = (n: string) => waitUntil(async () => (await adminOrder(n))?.shiprocketAWB, `a shipment for ${n}`);
const sandboxOrders = async (n: string) =>
  (await db.pool.query('SELECT awb_code FROM shiprocket_sandbox.orders WHERE channel_order_id = $1', [n])).rows;
/** POSTs a tracking webhook as Shiprocket does. */
const webhook = (body: unknown, apiKey: string | null = token) =>
  fetch(`${host.url}/api/orders/tracking-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey === null ? {} : { 'x-api-key': apiKey }) },
    body: JSON.stringify(body),
  });
const trackingBody = (orderNumber: string, awb: string, status: ShiprocketStatus, at: Date) => ({
  awb,
  courier_name: 'Sandbox Express',
  current_status: status,
  current_status_id: 17,
  shipment_status: status,
  shipment_status_id: 17,
  current_timestamp: shiprocketTimestamp(at),
  order_id: orderNumber,
  sr_order_id: 1,
  scans: [],
});

describe('shipping with tracking', () => {
  it('makes one shipment when an order is placed and shows its AWB, tracking URL and status to the admin and the buyer', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    const order = (await adminOrder(n))!;
    expect(order).toMatchObject({ shiprocketStatus: 'AWB ASSIGNED', deliveryStatus: 'Processing' });
    expect(order.shiprocketTrackingUrl).toMatch(new RegExp(`/tracking/${awb}$`));
    expect(await myOrder(n)).toMatchObject({ shiprocketAWB: awb, shiprocketStatus: 'AWB ASSIGNED' });
    expect((await eventsOf(n)).map((e) => e.type)).toEqual(['OrderPlaced', 'ShipmentCreated']);
    expect(await sandboxOrders(n)).toEqual([{ awb_code: awb }]);
  });

  it('makes the shipment once when the process dies between the provider answering and the record', async () => {
    dieAfterNextCall = true;
    const n = await placeOrder();
    // The provider has the shipment; the shop has not recorded it and keeps it pending for a retry.
    const [made] = await waitUntil(async () => {
      const rows = await sandboxOrders(n);
      return rows[0]?.awb_code ? rows : null;
    }, 'the provider to make the shipment');
    await waitUntil(
      async () =>
        (await db.pool.query('SELECT 1 FROM orders.pending_shipments WHERE order_number = $1 AND attempts > 0', [n]))
          .rowCount,
      'the failed attempt to be recorded for a retry',
    );
    expect((await eventsOf(n)).map((e) => e.type)).toEqual(['OrderPlaced']);
    // The retry (the job's run) finds the provider's shipment of this order number instead of making another.
    const awb = await waitUntil(async () => {
      await host.order.shipments!.run();
      return (await adminOrder(n))?.shiprocketAWB;
    }, 'the retried shipment to be recorded');
    expect(awb).toBe(made.awb_code);
    expect(await sandboxOrders(n)).toHaveLength(1);
    expect((await eventsOf(n)).filter((e) => e.type === 'ShipmentCreated')).toHaveLength(1);
    expect((await db.pool.query('SELECT 1 FROM orders.pending_shipments WHERE order_number = $1', [n])).rowCount).toBe(
      0,
    );
  });

  it('moves the order to Out for Delivery, then Delivered, as the tracking webhooks come', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    for (const step of ['PICKED UP', 'IN TRANSIT', 'OUT FOR DELIVERY'])
      expect((await sandbox.advance(awb)).currentStatus).toBe(step);
    await waitUntil(
      async () => (await myOrder(n))?.deliveryStatus === 'Out for Delivery',
      'Out for Delivery from the webhook',
    );
    expect(await myOrder(n)).toMatchObject({ shiprocketStatus: 'OUT FOR DELIVERY' });
    await sandbox.advance(awb);
    await waitUntil(async () => (await adminOrder(n))?.deliveryStatus === 'Delivered', 'Delivered from the webhook');
    expect(await adminOrder(n)).toMatchObject({ shiprocketStatus: 'DELIVERED' });
    const events = await eventsOf(n);
    expect(events.filter((e) => e.type === 'ShippingStatusUpdated').map((e) => e.data.shippingStatus)).toEqual([
      'PICKED UP',
      'IN TRANSIT',
      'OUT FOR DELIVERY',
      'DELIVERED',
    ]);
    expect(events.filter((e) => e.type === 'DeliveryStatusChanged').map((e) => [e.data.to, e.data.changedBy])).toEqual([
      ['Out for Delivery', 'shiprocket'],
      ['Delivered', 'shiprocket'],
    ]);
  });

  it('records a redelivered webhook once: the duplicate changes nothing', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    const body = trackingBody(n, awb, 'OUT FOR DELIVERY', new Date('2026-11-24T08:00:00Z'));
    const first = await webhook(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'recorded' });
    const before = await eventsOf(n);
    const again = await webhook(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: 'duplicate' });
    expect(await eventsOf(n)).toHaveLength(before.length);
    await waitUntil(async () => (await myOrder(n))?.deliveryStatus === 'Out for Delivery', 'the recorded update');
    expect((await eventsOf(n)).filter((e) => e.type === 'DeliveryStatusChanged').map((e) => e.data.to)).toEqual([
      'Out for Delivery',
    ]);
  });

  it('refuses a webhook without the token (401), with a wrong one (401), or with a body it cannot read (400)', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    const body = trackingBody(n, awb, 'DELIVERED', new Date('2026-11-24T09:00:00Z'));
    expect((await webhook(body, null)).status).toBe(401);
    expect((await webhook(body, `${token}x`)).status).toBe(401);
    expect((await webhook({ ...body, current_timestamp: 'yesterday' })).status).toBe(400);
    expect((await webhook({ awb })).status).toBe(400);
    expect((await eventsOf(n)).map((e) => e.type)).toEqual(['OrderPlaced', 'ShipmentCreated']);
    // An AWB the shop has no order for is taken and ignored (Shiprocket takes only a 200).
    const unknown = await webhook({ ...body, awb: 'SR-UNKNOWN', order_id: 'x' });
    expect(await unknown.json()).toEqual({ status: 'ignored' });
  });

  it('shows a return to origin or a lost parcel as the shipping status, leaving the delivery status to the admin', async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    await sandbox.advance(awb, 'RTO INITIATED');
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'RTO INITIATED', 'the RTO status');
    expect((await adminOrder(n))?.deliveryStatus).toBe('Processing');
    await sandbox.advance(awb, 'LOST');
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'LOST', 'the lost status');
    expect((await adminOrder(n))?.deliveryStatus).toBe('Processing');
  });

  it("orders the admin's dropdown and the webhooks by the log: tracking never moves an order back", async () => {
    const n = await placeOrder();
    const awb = await shipped(n);
    const setStatus = (deliveryStatus: string) =>
      host.api('PATCH', `/api/orders/admin/${n}/status`, { token: admin, body: { deliveryStatus } });
    expect((await setStatus('Delivered')).status).toBe(200);
    // Out for Delivery arrives after the admin's Delivered: recorded as the shipping status, Delivered stays.
    expect(await webhook(trackingBody(n, awb, 'OUT FOR DELIVERY', new Date('2026-11-24T08:00:00Z')))).toMatchObject({
      status: 200,
    });
    await waitUntil(async () => (await adminOrder(n))?.shiprocketStatus === 'OUT FOR DELIVERY', 'the shipping status');
    expect((await adminOrder(n))?.deliveryStatus).toBe('Delivered');
    // The admin moves it back by hand; the next webhook moves it forward again from there.
    expect((await setStatus('Processing')).status).toBe(200);
    expect(await webhook(trackingBody(n, awb, 'DELIVERED', new Date('2026-11-24T12:00:00Z')))).toMatchObject({
      status: 200,
    });
    await waitUntil(async () => (await adminOrder(n))?.deliveryStatus === 'Delivered', 'Delivered from tracking');
    expect((await adminOrder(n))?.shiprocketStatus).toBe('DELIVERED');
    const log = (await eventsOf(n))
      .slice(2)
      .map((e) =>
        e.type === 'DeliveryStatusChanged'
          ? `${e.data.changedBy === 'shiprocket' ? 'tracking' : 'admin'} → ${e.data.to}`
          : `shipping ${e.data.shippingStatus}`,
      );
    expect(log).toEqual([
      'admin → Delivered',
      'shipping OUT FOR DELIVERY',
      'admin → Processing',
      'shipping DELIVERED',
      'tracking → Delivered',
    ]);
  });
});

describe('a shipment Shiprocket refuses', () => {
  const REFUSAL = 'The billing pincode must be 6 digits.';

  it('is parked, not retried, recorded once as ShipmentRefused, and shown to the admin with its reason', async () => {
    // The sandbox refuses (422) a pincode that is not 6 digits, as Shiprocket does.
    const n = await placeOrder('56001');
    const row = await waitUntil(async () => {
      const r = await pendingShipment(n);
      return r?.parked ? r : null;
    }, 'the refused shipment to be parked');
    expect(row).toMatchObject({ attempts: 1 });
    expect(row.last_error).toContain(REFUSAL);
    const problem = await waitUntil(
      async () => (await adminOrder(n))?.shipmentProblem,
      'the refusal on the admin view',
    );
    expect(problem).toBe(REFUSAL);
    expect(await adminOrder(n)).toMatchObject({ shiprocketAWB: null, deliveryStatus: 'Processing' });
    expect((await eventsOf(n)).map((e) => [e.type, e.data.reason])).toEqual([
      ['OrderPlaced', undefined],
      ['ShipmentRefused', REFUSAL],
    ]);
    expect(await sandboxOrders(n)).toEqual([]);

    // Parked: the job's runs leave it alone.
    await host.order.shipments!.run();
    expect(await pendingShipment(n)).toMatchObject({ attempts: 1, parked: true });

    // Asked again (made due by hand), Shiprocket refuses the same way: parked again, nothing more recorded.
    await db.pool.query(`UPDATE orders.pending_shipments SET next_attempt_at = now() WHERE order_number = $1`, [n]);
    await waitUntil(async () => {
      await host.order.shipments!.run();
      const r = await pendingShipment(n);
      return r?.attempts === 2 && r.parked;
    }, 'the second refusal to park the row again');
    expect((await eventsOf(n)).filter((e) => e.type === 'ShipmentRefused')).toHaveLength(1);

    // A shipment made later (the address put right) clears the problem.
    const placed = (await eventsOf(n))[0]!.data as unknown as OrderPlaced['data'];
    const made = await provider.createShipment({ ...shipmentRequest(placed), pincode: '560001' });
    await host.order.orders.recordShipment(n, made);
    await waitUntil(async () => (await adminOrder(n))?.shiprocketAWB === made.awb, 'the later shipment');
    expect((await adminOrder(n))?.shipmentProblem).toBeNull();
  });

  it('an outage is retried and records nothing, then the shipment is made', async () => {
    outage = true;
    try {
      const n = await placeOrder();
      const row = await waitUntil(async () => {
        const r = await pendingShipment(n);
        return r && r.attempts > 0 ? r : null;
      }, 'the failed attempt to be recorded for a retry');
      expect(row.parked).toBe(false);
      expect(row.last_error).toContain('Service Unavailable');
      expect((await eventsOf(n)).map((e) => e.type)).toEqual(['OrderPlaced']);
      expect((await adminOrder(n))?.shipmentProblem).toBeNull();
      outage = false;
      await waitUntil(async () => {
        await host.order.shipments!.run();
        return (await adminOrder(n))?.shiprocketAWB;
      }, 'the retried shipment to be recorded');
      expect((await eventsOf(n)).map((e) => e.type)).toEqual(['OrderPlaced', 'ShipmentCreated']);
      expect(await pendingShipment(n)).toBeNull();
    } finally {
      outage = false;
    }
  });
});
