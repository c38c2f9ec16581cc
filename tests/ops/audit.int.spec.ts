import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersProjection } from '../../services/accounts/src/read-models/users/users-projection.ts';
import type { HistoryEntry } from '../../services/shared/src/audit/event-history.ts';
import type { ParkedEntry } from '../../services/shared/src/audit/parked-audit.ts';
import { parkEvent } from '../../services/shared/src/bus/parked-events.ts';
import { inTransaction } from '../../services/shared/src/bus/transaction.ts';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { runScript } from './run-script.ts';

let shop: TestShop;
let admin: string;
let adminId: string;
let env: Record<string, string>;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  adminId = (await shop.api<{ id: string }>('GET', '/api/auth/me', { token: admin })).body.id;
  env = { DATABASE_URL: shop.db.url };
});
afterAll(() => shop?.stop());

async function createProduct(name: string): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name, price: '800', quantity: '10', category: 'Women' })) form.append(k, v);
  const r = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
  expect(r.status).toBe(201);
  return r.body.id;
}

const history = (orderNumber: string, token?: string) =>
  shop.api<{ orderNumber: string; events: HistoryEntry[] }>('GET', `/api/orders/admin/${orderNumber}/history`, {
    token,
  });

describe('order history (admin endpoint and npm run audit)', () => {
  it('holds the payment, the stock reservation and the order with their actors, in log order', async () => {
    const product = await createProduct('Audit Kurta');
    const orderNumber = await buyThroughSandbox(shop, 1, [{ productId: product, quantity: 2 }]);
    // The shipment is made at the built-in Shiprocket sandbox after the order is placed; the courier picks
    // the parcel up (the sandbox's tracking webhook) before the admin moves the order along by hand.
    const awb = await waitUntil(async () => {
      const list = await shop.api<{ orderNumber: string; shiprocketAWB: string | null }[]>(
        'GET',
        '/api/orders/admin/all',
        {
          token: admin,
        },
      );
      return list.body.find((o) => o.orderNumber === orderNumber)?.shiprocketAWB;
    }, 'the shipment');
    expect((await shop.api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`)).status).toBe(200);
    await waitUntil(
      async () => (await history(orderNumber, admin)).body.events.some((e) => e.type === 'ShippingStatusUpdated'),
      'the tracking update',
    );
    for (const deliveryStatus of ['Out for Delivery', 'Delivered'])
      expect(
        (
          await shop.api('PATCH', `/api/orders/admin/${orderNumber}/status`, {
            token: admin,
            body: { deliveryStatus },
          })
        ).status,
      ).toBe(200);
    // The sale's stock commit is made by the settlement consumer, and the order's e-mails are sent, after the
    // answers: wait for them.
    const events = await waitUntil(async () => {
      const r = await history(orderNumber, admin);
      expect(r.status).toBe(200);
      const committed = r.body.events.some((e) => e.type === 'StockCommitted');
      const mailed = r.body.events.filter((e) => e.type === 'OrderEmailSent').length === 4;
      return committed && mailed ? r.body.events : undefined;
    }, 'the sale to be committed and its four e-mails sent');
    // The e-mails sent about the order (placed, shipped, out for delivery, delivered) are part of its history.
    expect(
      events.filter((e) => e.type === 'OrderEmailSent').map((e) => [e.streamId, (e.data as { kind: string }).kind]),
    ).toEqual(
      expect.arrayContaining([
        [`mails-${orderNumber}`, 'order-placed'],
        [`mails-${orderNumber}`, 'shipped'],
        [`mails-${orderNumber}`, 'out-for-delivery'],
        [`mails-${orderNumber}`, 'delivered'],
      ]),
    );

    const types = events.map((e) => e.type);
    const at = (type: string) => types.indexOf(type);
    expect(types).toEqual(
      expect.arrayContaining(['StockReserved', 'PaymentOrderCreated', 'PaymentVerified', 'StockCommitted']),
    );
    expect(at('StockReserved')).toBeLessThan(at('PaymentOrderCreated'));
    expect(at('PaymentOrderCreated')).toBeLessThan(at('PaymentVerified'));
    expect(at('PaymentVerified')).toBeLessThan(at('OrderPlaced'));
    const verified = events[at('PaymentVerified')]!;
    // The browser's verify and the sandbox's webhook race to record the payment: whichever came first is its actor.
    expect(verified).toMatchObject({ source: 'checkout' });
    expect(['checkout', 'webhook']).toContain(verified.actor);
    const payment = verified.streamId;
    expect(payment).toMatch(/^payment-/);
    const placed = events[at('OrderPlaced')]!;
    expect(placed).toMatchObject({ source: 'orders', streamId: `order-${orderNumber}`, actor: 'guest' });
    const reserved = events[at('StockReserved')]!;
    expect(reserved).toMatchObject({ source: 'catalog', streamId: `stock-${product}` });
    expect((reserved.data as { quantity: number }).quantity).toBe(2);
    const changes = events.filter((e) => e.type === 'DeliveryStatusChanged');
    expect(changes.map((e) => [e.actor, (e.data as { from: string; to: string }).to])).toEqual([
      [adminId, 'Out for Delivery'],
      [adminId, 'Delivered'],
    ]);
    expect(at('OrderPlaced')).toBeLessThan(types.lastIndexOf('DeliveryStatusChanged'));
    // The shipment and its tracking, on the order's stream, in log order.
    const shipment = events[at('ShipmentCreated')]!;
    expect(shipment).toMatchObject({ source: 'orders', streamId: `order-${orderNumber}`, actor: 'shipping' });
    expect(shipment.data).toMatchObject({ awb, shippingStatus: 'AWB ASSIGNED' });
    const tracked = events[at('ShippingStatusUpdated')]!;
    expect(tracked).toMatchObject({ streamId: `order-${orderNumber}`, actor: 'shiprocket' });
    expect(tracked.data).toMatchObject({ awb, shippingStatus: 'PICKED UP', source: 'webhook' });
    expect(at('OrderPlaced')).toBeLessThan(at('ShipmentCreated'));
    expect(at('ShipmentCreated')).toBeLessThan(at('ShippingStatusUpdated'));
    expect(at('ShippingStatusUpdated')).toBeLessThan(at('DeliveryStatusChanged'));
    for (const e of events) {
      expect(e.position).toMatch(/^\d+$/);
      expect(new Date(e.time).toISOString()).toBe(e.time);
      expect(e.indiaTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} IST$/);
    }
    // India time is UTC+05:30
    const t = new Date(placed.time);
    expect(placed.indiaTime.slice(0, 16)).toBe(
      new Date(t.getTime() + 330 * 60_000).toISOString().replace('T', ' ').slice(0, 16),
    );
    // Another order's events are not in it.
    const other = await buyThroughSandbox(shop, 2, [{ productId: product, quantity: 1 }]);
    expect((await history(orderNumber, admin)).body.events.some((e) => e.streamId === `order-${other}`)).toBe(false);

    // The CLI answers the same events, as JSON and as text.
    const json = await runScript('audit', ['order', orderNumber, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const cli = JSON.parse(json.stdout) as { events: HistoryEntry[] };
    expect(cli.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    const text = await runScript('audit', ['order', orderNumber], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`order ${orderNumber}: ${events.length} events`);
    expect(text.stdout).toMatch(/orders#\d+ +\d{4}-\d\d-\d\d [\d:.]+ IST {2}DeliveryStatusChanged/);
    expect(text.stdout).toMatch(/orders#\d+ +\d{4}-\d\d-\d\d [\d:.]+ IST {2}ShipmentCreated/);
    expect(text.stdout).toMatch(/orders#\d+ +\d{4}-\d\d-\d\d [\d:.]+ IST {2}ShippingStatusUpdated/);
    expect(text.stdout).toContain(awb);
    expect(text.stdout).toContain(`actor: ${adminId}`);
    const byPayment = await runScript('audit', ['payment', payment.slice('payment-'.length), '--json'], env);
    expect((JSON.parse(byPayment.stdout) as { events: HistoryEntry[] }).events.map((e) => e.eventId)).toEqual(
      events.map((e) => e.eventId),
    );
    const byProduct = await runScript('audit', ['product', product, '--json'], env);
    const productTypes = (JSON.parse(byProduct.stdout) as { events: HistoryEntry[] }).events.map((e) => e.type);
    expect(productTypes[0]).toBe('ProductCreated');
    expect(productTypes.filter((t) => t === 'StockCommitted')).toHaveLength(2);
    const unknown = await runScript('audit', ['order', 'ORD-999999'], env);
    expect(unknown).toMatchObject({ code: 1, stdout: 'No order ORD-999999 in the event logs.\n' });
    expect((await runScript('audit', ['shipment', 'x'], env)).code).toBe(2);
  });

  it('is for admins only: 401 without a token, 403 for a shopper, 404 for an unknown order', async () => {
    const product = await createProduct('Guarded Saree');
    const orderNumber = await buyThroughSandbox(shop, 3, [{ productId: product, quantity: 1 }]);
    const shopper = await shop.api<{ token: string }>('POST', '/api/auth/register', {
      body: { name: 'Meera', email: 'meera@audit.test', phone: '+919800000001', password: 'secret1' },
    });
    expect(shopper.status).toBe(201);
    expect((await history(orderNumber)).status).toBe(401);
    expect((await history(orderNumber, shopper.body.token)).status).toBe(403);
    expect((await history('ORD-424242', admin)).status).toBe(404);
    expect((await history('bad number!', admin)).status).toBe(400);
    expect((await history(orderNumber, admin)).status).toBe(200);
  });
});

describe('npm run audit -- user / parked', () => {
  it('lists a parked event with its error, replays it, and the parked gauge goes down', async () => {
    const reg = await shop.api<{ user: { id: string } }>('POST', '/api/auth/register', {
      body: { name: 'Parked Person', email: 'parked@audit.test', phone: '+919800000002', password: 'secret1' },
    });
    expect(reg.status).toBe(201);
    const userId = reg.body.user.id;
    const user = await runScript('audit', ['user', 'Parked@Audit.test', '--json'], env);
    expect(user.code, user.stderr).toBe(0);
    expect((JSON.parse(user.stdout) as { events: HistoryEntry[] }).events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['UserRegistered', 'EmailClaimed']),
    );

    // As if the users projection had failed on the registration: its row is missing and the event parked.
    const [registered] = (await shop.infra.context.eventStore('accounts').readStream(`user-${userId}`)).filter(
      (e) => e.type === 'UserRegistered',
    );
    await inTransaction(shop.db.pool, async (tx) => {
      await tx.query('DELETE FROM accounts.users WHERE id = $1', [userId]);
      await parkEvent(tx, usersProjection, registered!, 'Error: simulated failure', 5);
    });
    const gauge = async () => {
      const r = await shop.api<string>('GET', '/metrics', { token: admin });
      return Number(/^parked_events\{consumer="accounts\.users"[^}]*\} (\d+)$/m.exec(r.body)?.[1]);
    };
    expect(await gauge()).toBe(1);

    const listed = await runScript('audit', ['parked', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const parked = JSON.parse(listed.stdout) as ParkedEntry[];
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({
      consumer: 'accounts.users',
      type: 'UserRegistered',
      streamId: `user-${userId}`,
      error: 'Error: simulated failure',
      attempts: 5,
    });
    const text = await runScript('audit', ['parked'], env);
    expect(text.stdout).toContain(`${parked[0]!.ref}`);
    expect(text.stdout).toContain('error: Error: simulated failure');

    const replayed = await runScript('audit', ['parked', '--replay', parked[0]!.ref], env);
    expect(replayed.code, replayed.stderr + replayed.stdout).toBe(0);
    expect(replayed.stdout).toContain(`${parked[0]!.ref} accounts.users: replayed`);
    expect(await gauge()).toBe(0);
    const { rows } = await shop.db.pool.query('SELECT email FROM accounts.users WHERE id = $1', [userId]);
    expect(rows).toEqual([{ email: 'parked@audit.test' }]);
    expect(JSON.parse((await runScript('audit', ['parked', '--json'], env)).stdout)).toEqual([]);
    expect((await runScript('audit', ['parked', '--replay', 'all'], env)).stdout).toContain('No parked events');
  });
});
