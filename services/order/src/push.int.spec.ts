import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import type { DashboardStats } from './read-models/orders/dashboard-stats.ts';
import type { OrderView } from './read-models/orders/orders-queries.ts';
import { startOrderTestHost, type OrderTestHost } from './testing/order-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from './testing/payments.ts';
import { openEventStream, type EventStreamReader, type ReceivedEvent } from './testing/sse-client.ts';

type Pushed = Partial<OrderView> & { orderNumber: string; deleted?: boolean };

let db: TestDatabase;
let host: OrderTestHost;
let admin: string;
let asha: { userId: string; token: string };
let ravi: { userId: string; token: string };
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startOrderTestHost({ databaseUrl: db.url, push: { heartbeatMs: 100, retryMs: 2500 } });
  admin = await host.login();
  asha = await host.register('Asha Rao', 'asha@example.in');
  ravi = await host.register('Ravi Kumar', 'ravi@example.in');
});
afterAll(async () => {
  for (const s of streams) s.close();
  await host?.close();
  await db?.drop();
});

const open = async (h: OrderTestHost, opts: { token?: string; query?: string } = {}) => {
  const s = await openEventStream(`${h.url}/api/orders/stream${opts.query ?? ''}`, { token: opts.token });
  streams.push(s);
  return s;
};
const placeOrder = (h: OrderTestHost, userId: string) => placePaidOrder(h.ctx, paymentVerifiedData({ userId }));
const orderEvent =
  (orderNumber: string, check: (o: Pushed) => boolean = () => true) =>
  (e: ReceivedEvent) =>
    e.event === 'order' && e.json<Pushed>().orderNumber === orderNumber && check(e.json<Pushed>());

describe('order push stream (Server-Sent Events)', () => {
  it('refuses a connection without a valid token with 401', async () => {
    expect((await open(host)).status).toBe(401);
    expect((await open(host, { token: 'forged.token.value' })).status).toBe(401);
    expect((await open(host, { query: '?access_token=nope' })).status).toBe(401);
  });

  it('opens an unbuffered event stream that starts with ready, a retry hint, then sends heartbeats', async () => {
    const s = await open(host, { token: asha.token });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('cache-control')).toMatch(/no-cache/);
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    await s.waitUntil(() => s.events.length > 0, 'the first event');
    expect(s.events[0]!.event).toBe('ready');
    expect(s.events[0]!.json()).toEqual({ userId: asha.userId, isAdmin: false });
    expect(s.retryMs).toBe(2500);
    await s.waitUntil(() => s.comments.includes('heartbeat'), 'a heartbeat comment');
  });

  it('pushes to an admin every order placed and changed with the dashboard figures; deleted ones as deleted', async () => {
    const s = await open(host, { token: admin });
    await s.waitFor((e) => e.event === 'stats', 'the figures on connect');
    expect(s.events.map((e) => e.event).slice(0, 2)).toEqual(['ready', 'stats']);

    const n = await placeOrder(host, asha.userId);
    const placed = await s.waitFor(orderEvent(n), 'the new order');
    expect(placed.json()).toMatchObject({
      orderNumber: n,
      deliveryStatus: 'Processing',
      totalAmount: 2749.1,
      seen: false,
    });

    await host.api('PATCH', `/api/orders/admin/${n}/status`, {
      token: admin,
      body: { deliveryStatus: 'Out for Delivery' },
    });
    const changed = await s.waitFor(
      orderEvent(n, (o) => o.deliveryStatus === 'Out for Delivery'),
      'the status change',
    );
    const statsAfter = await s.waitFor(
      (e) => e.event === 'stats' && s.events.indexOf(e) > s.events.indexOf(changed),
      'figures after the change',
    );
    expect(statsAfter.json<DashboardStats>().ordersByStatus['Out for Delivery']).toBeGreaterThanOrEqual(1);

    await host.api('PATCH', `/api/orders/admin/${n}/status`, { token: admin, body: { deliveryStatus: 'Delivered' } });
    await host.api('DELETE', `/api/orders/admin/${n}`, { token: admin });
    const gone = await s.waitFor(
      orderEvent(n, (o) => o.deleted === true),
      'the deletion',
    );
    expect(gone.json()).toEqual({ orderNumber: n, deleted: true });
  });

  it('opens with a 60-second ticket from POST /api/orders/stream-ticket (issue 27 item 4); a ticket is no bearer token, a token is no ticket', async () => {
    expect((await host.api('POST', '/api/orders/stream-ticket')).status).toBe(401);
    const issued = await host.api<{ ticket: string; expiresIn: number }>('POST', '/api/orders/stream-ticket', {
      token: ravi.token,
    });
    expect(issued).toMatchObject({ status: 200, body: { expiresIn: 60 } });
    const { ticket } = issued.body;
    const s = await open(host, { query: `?ticket=${encodeURIComponent(ticket)}` });
    expect(s.status).toBe(200);
    const ready = await s.waitFor((e) => e.event === 'ready', 'ready');
    expect(ready.json()).toEqual({ userId: ravi.userId, isAdmin: false });
    s.close();
    expect((await host.api('GET', '/api/orders', { token: ticket })).status).toBe(401);
    expect((await open(host, { token: ticket })).status).toBe(401);
    expect((await open(host, { query: `?ticket=${encodeURIComponent(ravi.token)}` })).status).toBe(401);
  });

  it('pushes to a shopper (token in the query, as EventSource does) only their own orders, and no figures', async () => {
    const s = await open(host, { query: `?access_token=${encodeURIComponent(ravi.token)}` });
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'ready', 'ready');
    const hers = await placeOrder(host, asha.userId);
    const his = await placeOrder(host, ravi.userId);
    await s.waitFor(orderEvent(his), "Ravi's new order");
    await host.api('PATCH', `/api/orders/admin/${hers}/seen`, { token: admin });
    await host.api('PATCH', `/api/orders/admin/${his}/status`, { token: admin, body: { deliveryStatus: 'Delivered' } });
    await s.waitFor(
      orderEvent(his, (o) => o.deliveryStatus === 'Delivered'),
      "Ravi's delivery",
    );
    // One connection delivers in order: anything about Asha's order would have arrived by now.
    const seenNumbers = s.events.filter((e) => e.event === 'order').map((e) => e.json<Pushed>().orderNumber);
    expect(new Set(seenNumbers)).toEqual(new Set([his]));
    expect(s.events.some((e) => e.event === 'stats')).toBe(false);
  });

  it('drops a stream when its client goes away', async () => {
    const s = await open(host, { token: asha.token });
    await s.waitFor((e) => e.event === 'ready', 'ready');
    const before = host.order.push.size;
    s.close();
    await waitUntil(async () => host.order.push.size < before, 'the server to drop the stream');
  });
});

describe('order push across processes (Redis pub/sub)', () => {
  let db2: TestDatabase;
  let writer: OrderTestHost;
  let reader: OrderTestHost;
  beforeAll(async () => {
    db2 = await createTestDatabase({ migrate: false });
    const redis = { url: inject('redisUrl'), prefix: `test-${randomUUID()}:` };
    writer = await startOrderTestHost({ databaseUrl: db2.url, redis });
    // Runs no consumers: it can only hear of changes through Redis.
    reader = await startOrderTestHost({ databaseUrl: db2.url, redis, consumers: false });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await reader?.close();
    await writer?.close();
    await db2?.drop();
  });

  it('streams a status change made through one process to an admin connected to another', async () => {
    const token = await reader.login();
    const shopper = await writer.register('Neha', 'neha@example.in');
    const s = await open(reader, { token });
    await s.waitFor((e) => e.event === 'stats', 'the figures on connect');
    const n = await placeOrder(writer, shopper.userId);
    await s.waitFor(orderEvent(n), 'the new order');
    const r = await writer.api('PATCH', `/api/orders/admin/${n}/status`, {
      token,
      body: { deliveryStatus: 'Out for Delivery' },
    });
    expect(r.status).toBe(200);
    await s.waitFor(
      orderEvent(n, (o) => o.deliveryStatus === 'Out for Delivery'),
      'the status change',
    );
    const mine = await open(reader, { token: shopper.token });
    await mine.waitFor((e) => e.event === 'ready', 'ready');
    await writer.api('PATCH', `/api/orders/admin/${n}/status`, { token, body: { deliveryStatus: 'Delivered' } });
    await mine.waitFor(
      orderEvent(n, (o) => o.deliveryStatus === 'Delivered'),
      "the shopper's delivery",
    );
  });
});
