import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShiprocketSandbox, type ShiprocketSandbox } from '@shop/shiprocket-sandbox';
import { UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { addressParts, createShiprocketProvider } from './shiprocket-provider.ts';
import type { ShipmentRequest } from './shipping-provider.ts';

const EMAIL = 'api-user@shop.test';
const PASSWORD = 'sandbox-password';

let db: TestDatabase;
let sandbox: ShiprocketSandbox;
let server: Server;
let base: string;
/** Set by a test: create-adhoc of an order_id the sandbox has is refused with 422, as Shiprocket may answer. */
let refuseRepeats = false;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = createShiprocketSandbox({ email: EMAIL, password: PASSWORD, pool: db.pool, basePath: '/shiprocket' });
  const app = express();
  app.post('/shiprocket/v1/external/orders/create/adhoc', express.json(), async (req, res, next) => {
    const orderId = (req.body as { order_id?: string }).order_id;
    const known = await db.pool.query('SELECT 1 FROM shiprocket_sandbox.orders WHERE channel_order_id = $1', [orderId]);
    if (!refuseRepeats || !known.rowCount) return next();
    res.status(422).json({ message: 'Order Id already exists.', status_code: 422 });
  });
  app.use('/shiprocket', sandbox.router);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/shiprocket`;
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => server?.close(resolve));
  await db?.drop();
});

const provider = (overrides: { password?: string } = {}) =>
  createShiprocketProvider({
    apiUrl: `${base}/v1/external`,
    email: EMAIL,
    password: overrides.password ?? PASSWORD,
    pickupLocation: 'Primary',
    trackingUrlBase: 'https://shiprocket.co/tracking/',
  });

let seq = 0;
const request = (overrides: Partial<ShipmentRequest> = {}): ShipmentRequest => ({
  orderNumber: `ORD-9${String(++seq).padStart(5, '0')}`,
  placedAt: new Date('2026-11-22T10:15:00Z'),
  customer: { name: 'Asha Rao', email: 'asha@example.in', phone: '+919812345678' },
  address: '12 MG Road, Bengaluru, Karnataka',
  pincode: '560001',
  lines: [
    { productId: 'p-kurta', name: 'Linen Kurta', size: 'M', color: 'White', quantity: 2, unitPricePaise: 149950 },
  ],
  subtotalPaise: 299900,
  discountPaise: 29990,
  chargesPaise: 5000,
  totalPaise: 274910,
  ...overrides,
});

describe('Shiprocket adapter against the sandbox over HTTP', () => {
  it('logs in, creates the order and assigns an AWB, with the tracking page of that AWB', async () => {
    const r = request();
    const shipment = await provider().createShipment(r);
    expect(shipment).toMatchObject({ courier: 'Sandbox Express', shippingStatus: 'AWB ASSIGNED' });
    expect(shipment.awb).toMatch(/^SR\d{12}$/);
    expect(shipment.trackingUrl).toBe(`https://shiprocket.co/tracking/${shipment.awb}`);
    // What Shiprocket was sent: the order number as order_id, amounts in rupees, the address's city and state.
    const { rows } = await db.pool.query<{ body: Record<string, unknown> }>(
      'SELECT body FROM shiprocket_sandbox.orders WHERE channel_order_id = $1',
      [r.orderNumber],
    );
    expect(rows[0]!.body).toMatchObject({
      order_id: r.orderNumber,
      order_date: '2026-11-22 15:45',
      billing_city: 'Bengaluru',
      billing_state: 'Karnataka',
      billing_pincode: '560001',
      payment_method: 'Prepaid',
      sub_total: 2999,
      total_discount: 299.9,
      shipping_charges: 50,
      order_items: [{ name: 'Linen Kurta', sku: 'p-kurta-M-White', units: 2, selling_price: 1499.5 }],
    });
  });

  it('answers the same shipment when asked again for the same order number (a retry after a crash)', async () => {
    const r = request();
    const first = await provider().createShipment(r);
    const again = await provider().createShipment(r);
    expect(again).toEqual(first);
    const { rows } = await db.pool.query('SELECT 1 FROM shiprocket_sandbox.orders WHERE channel_order_id = $1', [
      r.orderNumber,
    ]);
    expect(rows).toHaveLength(1);
  });

  it("finds the order of an order number in Shiprocket's order list, with its shipment; null for one it has not", async () => {
    const p = provider();
    const r = request();
    expect(await p.findShipment(r.orderNumber)).toBeNull();
    const made = await p.createShipment(r);
    expect(await p.findShipment(r.orderNumber)).toEqual(made);
    // The search also matches an AWB; only the order of this order number is answered.
    expect(await p.findShipment(made.awb)).toBeNull();
  });

  it('meets a refused repeat of an order_id (422) with the order Shiprocket has, making nothing new', async () => {
    const p = provider();
    const r = request();
    const first = await p.createShipment(r);
    refuseRepeats = true;
    try {
      expect(await p.createShipment(r)).toEqual(first);
      // A refusal for another reason is not taken for a repeat.
      await expect(p.createShipment(request({ pincode: '5600' }))).rejects.toBeInstanceOf(ValidationError);
    } finally {
      refuseRepeats = false;
    }
    const { rows } = await db.pool.query('SELECT 1 FROM shiprocket_sandbox.orders WHERE channel_order_id = $1', [
      r.orderNumber,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('tracks a parcel by AWB as the courier moves it', async () => {
    const p = provider();
    const { awb } = await p.createShipment(request());
    expect(await p.track(awb)).toMatchObject({ awb, shippingStatus: 'AWB ASSIGNED' });
    await sandbox.advance(awb);
    // With the time of the latest scan, as Shiprocket's activities give it (India time, to the second).
    const toTheSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);
    const inTransit = await sandbox.advance(awb);
    expect(await p.track(awb)).toMatchObject({
      shippingStatus: 'IN TRANSIT',
      updatedAt: toTheSecond(inTransit.updatedAt),
    });
    const rto = await sandbox.advance(awb, 'RTO INITIATED');
    expect(await p.track(awb)).toMatchObject({
      shippingStatus: 'RTO INITIATED',
      updatedAt: toTheSecond(rto.updatedAt),
    });
    expect(await p.track('SR-NO-SUCH')).toMatchObject({ shippingStatus: null, updatedAt: null });
  });

  it('serves the tracking page with buttons that move the parcel along', async () => {
    const { awb } = await provider().createShipment(request());
    const page = await fetch(`${base}/tracking/${awb}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('AWB ASSIGNED');
    const moved = await fetch(`${base}/sandbox/shipments/${awb}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'status=OUT+FOR+DELIVERY',
      redirect: 'manual',
    });
    expect(moved.status).toBe(303);
    expect(await (await fetch(`${base}/tracking/${awb}`)).text()).toContain('<strong>OUT FOR DELIVERY</strong>');
    const delivered = await fetch(`${base}/sandbox/shipments/${awb}/advance`, { method: 'POST' });
    expect(await delivered.json()).toEqual({ awb, current_status: 'DELIVERED', current_status_id: 7 });
    expect((await fetch(`${base}/sandbox/shipments/${awb}/advance`, { method: 'POST' })).status).toBe(409);
  });

  it("cancels the shipment's order by Shiprocket's order id: CANCELED, once, even when asked again; the courier no longer moves it", async () => {
    const p = provider();
    const r = request();
    const shipment = await p.createShipment(r);
    const { rows } = await db.pool.query<{ order_id: string }>(
      'SELECT order_id FROM shiprocket_sandbox.orders WHERE channel_order_id = $1',
      [r.orderNumber],
    );
    expect(shipment.providerOrderId).toBe(String(rows[0]!.order_id));
    const cancel = { orderNumber: r.orderNumber, awb: shipment.awb, providerOrderId: shipment.providerOrderId };
    await p.cancelShipment(cancel);
    await p.cancelShipment(cancel);
    expect((await p.track(shipment.awb)).shippingStatus).toBe('CANCELED');
    const scans = await db.pool.query<{ scans: { status: string }[] }>(
      'SELECT scans FROM shiprocket_sandbox.orders WHERE channel_order_id = $1',
      [r.orderNumber],
    );
    expect(scans.rows[0]!.scans.map((x) => x.status)).toEqual(['AWB ASSIGNED', 'CANCELED']);
    // The tracking page says so and offers no button; the advance call refuses to move it.
    const page = await (await fetch(`${base}/tracking/${shipment.awb}`)).text();
    expect(page).toContain('<strong>CANCELED</strong>');
    expect(page).not.toContain('<button');
    expect((await fetch(`${base}/sandbox/shipments/${shipment.awb}/advance`, { method: 'POST' })).status).toBe(409);
    await expect(sandbox.advance(shipment.awb, 'DELIVERED')).rejects.toThrow(/cancelled/);
  });

  it('refuses to cancel an order whose parcel the courier has, or one Shiprocket does not know, as a validation error', async () => {
    const p = provider();
    const shipment = await p.createShipment(request());
    await sandbox.advance(shipment.awb);
    await expect(
      p.cancelShipment({ orderNumber: 'x', awb: shipment.awb, providerOrderId: shipment.providerOrderId }),
    ).rejects.toThrow(/cannot be cancelled: its shipment is PICKED UP/);
    expect((await p.track(shipment.awb)).shippingStatus).toBe('PICKED UP');
    await expect(
      p.cancelShipment({ orderNumber: 'x', awb: 'SR-NO-SUCH', providerOrderId: '999999999' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses wrong credentials as unavailable and a request Shiprocket refuses as a validation error', async () => {
    await expect(provider({ password: 'wrong' }).createShipment(request())).rejects.toBeInstanceOf(UnavailableError);
    await expect(provider().createShipment(request({ pincode: '5600' }))).rejects.toBeInstanceOf(ValidationError);
    await expect(provider().createShipment(request({ pincode: '5600' }))).rejects.toThrow(/billing pincode/);
    // Shiprocket's own words of the refusal (its field errors), for the admin.
    await expect(provider().createShipment(request({ pincode: '5600' }))).rejects.toMatchObject({
      details: { status: 422, providerMessage: 'The billing pincode must be 6 digits.' },
    });
  });

  it('reads the city and state from the address line', () => {
    expect(addressParts('12 MG Road, Indiranagar, Bengaluru, Karnataka')).toMatchObject({
      city: 'Bengaluru',
      state: 'Karnataka',
    });
    expect(addressParts('Flat 4, Pune')).toMatchObject({ city: 'Pune', state: 'Pune' });
  });
});
