import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import type { DashboardStats } from './read-models/orders/dashboard-stats.ts';
import type { OrderView } from './read-models/orders/orders-queries.ts';
import { startOrderTestHost, type OrderTestHost } from './testing/order-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from './testing/payments.ts';

let db: TestDatabase;
let host: OrderTestHost;
let admin: string;
let ravi: { userId: string; token: string };

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startOrderTestHost({ databaseUrl: db.url });
  admin = await host.login();
  ravi = await host.register('Ravi Kumar', 'ravi@example.in');
});
afterAll(async () => {
  await host?.close();
  await db?.drop();
});

/** A paid order for Ravi, as the buyer's list shows it. */
const placeOrder = (totalPaise = 274910) =>
  placePaidOrder(host.ctx, paymentVerifiedData({ userId: ravi.userId, totalPaise }));
const setStatus = (orderNumber: string, body: unknown, token = admin) =>
  host.api<OrderView & { message: string }>('PATCH', `/api/orders/admin/${orderNumber}/status`, { token, body });
const stats = async () => (await host.api<DashboardStats>('GET', '/api/orders/admin/stats', { token: admin })).body;

describe('orders API', () => {
  it('lists own orders newest first for a shopper, nothing for someone else, 401 without a token', async () => {
    const first = await placeOrder();
    const second = await placeOrder();
    const mine = await host.api<OrderView[]>('GET', '/api/orders', { token: ravi.token });
    expect(mine.body.map((o) => o.orderNumber)).toEqual([second, first]);
    const other = await host.register('Meera', 'meera@example.in');
    expect(await host.api('GET', '/api/orders', { token: other.token })).toMatchObject({ status: 200, body: [] });
    expect((await host.api('GET', '/api/orders')).status).toBe(401);
  });

  it('guards every admin route: 401 without a token, 403 for a shopper', async () => {
    const n = await placeOrder();
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/orders/admin/all'],
      ['GET', '/api/orders/admin/stats'],
      ['PATCH', `/api/orders/admin/${n}/status`, { deliveryStatus: 'Delivered' }],
      ['PATCH', `/api/orders/admin/${n}/seen`],
      ['DELETE', `/api/orders/admin/${n}`],
    ];
    for (const [method, path, body] of routes) {
      expect((await host.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await host.api(method, path, { body, token: ravi.token })).status, `${method} ${path}`).toBe(403);
    }
    const order = (await host.api<OrderView[]>('GET', '/api/orders', { token: ravi.token })).body.find(
      (o) => o.orderNumber === n,
    );
    expect(order).toMatchObject({ deliveryStatus: 'Processing', seen: false });
  });

  it('changes the delivery status, answers the updated order, and the lists show it at once', async () => {
    const n = await placeOrder();
    const r = await setStatus(n, { deliveryStatus: 'Out for Delivery' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ orderNumber: n, deliveryStatus: 'Out for Delivery' });
    expect(r.body.items[0]!.deliveryStatus).toBe('Out for Delivery');
    const mine = await host.api<OrderView[]>('GET', '/api/orders', { token: ravi.token });
    expect(mine.body.find((o) => o.orderNumber === n)?.deliveryStatus).toBe('Out for Delivery');
    // setting the same status again changes nothing and records nothing
    expect((await setStatus(n, { deliveryStatus: 'Out for Delivery' })).status).toBe(200);
    const history = await host.ctx.eventStore('orders').readStream(`order-${n}`);
    expect(history.map((e) => e.type)).toEqual(['OrderPlaced', 'DeliveryStatusChanged']);
    expect(history[1]!.data).toMatchObject({ from: 'Processing', to: 'Out for Delivery' });
  });

  it('refuses a status that is not one of the three, or an unknown order', async () => {
    const n = await placeOrder();
    const message = 'deliveryStatus must be Processing, Out for Delivery or Delivered';
    for (const body of [{ deliveryStatus: 'Cancelled' }, { deliveryStatus: 'delivered' }, {}, undefined, ['Delivered']])
      expect(await setStatus(n, body)).toMatchObject({ status: 400, body: { message } });
    expect(await setStatus('ORD-999999', { deliveryStatus: 'Delivered' })).toMatchObject({
      status: 404,
      body: { message: 'Order not found' },
    });
    expect((await setStatus('ORD%20x;drop', { deliveryStatus: 'Delivered' })).status).toBe(400);
  });

  it('marks an order seen, idempotently', async () => {
    const n = await placeOrder();
    const seen = () => host.api<OrderView>('PATCH', `/api/orders/admin/${n}/seen`, { token: admin });
    expect(await seen()).toMatchObject({ status: 200, body: { orderNumber: n, seen: true } });
    expect(await seen()).toMatchObject({ status: 200, body: { seen: true } });
    const history = await host.ctx.eventStore('orders').readStream(`order-${n}`);
    expect(history.map((e) => e.type)).toEqual(['OrderPlaced', 'OrderMarkedSeen']);
    expect((await host.api('PATCH', '/api/orders/admin/ORD-999999/seen', { token: admin })).status).toBe(404);
  });

  it('deletes only delivered orders: 409 with the reason otherwise, 404 once gone', async () => {
    const n = await placeOrder();
    const del = () => host.api('DELETE', `/api/orders/admin/${n}`, { token: admin });
    expect(await del()).toMatchObject({ status: 409, body: { message: 'Only delivered orders can be deleted' } });
    await setStatus(n, { deliveryStatus: 'Out for Delivery' });
    expect((await del()).status).toBe(409);
    await setStatus(n, { deliveryStatus: 'Delivered' });
    expect(await del()).toMatchObject({ status: 200, body: { message: 'Order deleted', orderNumber: n } });
    const all = await host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin });
    expect(all.body.map((o) => o.orderNumber)).not.toContain(n);
    expect(await del()).toMatchObject({ status: 404, body: { message: 'Order not found' } });
    expect((await setStatus(n, { deliveryStatus: 'Processing' })).status).toBe(404);
    expect((await host.api('DELETE', '/api/orders/admin/ORD-999999', { token: admin })).status).toBe(404);
  });

  it('gives the dashboard figures: orders, revenue in rupees, per status, unseen; after a delete the counts agree with the list, the revenue stays', async () => {
    const before = await stats();
    const a = await placeOrder(100050); // ₹1,000.50
    const b = await placeOrder(250000);
    await setStatus(a, { deliveryStatus: 'Delivered' });
    await host.api('PATCH', `/api/orders/admin/${b}/seen`, { token: admin });
    const mid = await stats();
    expect(mid.totalOrders).toBe(before.totalOrders + 2);
    expect(mid.totalRevenue).toBeCloseTo(before.totalRevenue + 3500.5, 2);
    expect(mid.ordersByStatus.Delivered).toBe(before.ordersByStatus.Delivered! + 1);
    expect(mid.ordersByStatus.Processing).toBe(before.ordersByStatus.Processing! + 1);
    expect(mid.ordersByStatus['Out for Delivery']).toBe(before.ordersByStatus['Out for Delivery']);
    expect(mid.unseenOrders).toBe(before.unseenOrders + 1);
    await host.api('DELETE', `/api/orders/admin/${a}`, { token: admin });
    const after = await stats();
    // Total orders is the sum of the status tiles and the length of the admin list; the sale stays in revenue.
    const tiles = (s: typeof after) => Object.values(s.ordersByStatus).reduce((sum, n) => sum + n, 0);
    const listed = (await host.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body.length;
    expect(after).toMatchObject({ totalOrders: mid.totalOrders - 1, totalRevenue: mid.totalRevenue });
    expect(after.totalOrders).toBe(tiles(after));
    expect(after.totalOrders).toBe(listed);
    expect(mid.totalOrders).toBe(tiles(mid));
    expect(after.ordersByStatus.Delivered).toBe(mid.ordersByStatus.Delivered! - 1);
    expect(after.unseenOrders).toBe(mid.unseenOrders - 1);
  });
});
