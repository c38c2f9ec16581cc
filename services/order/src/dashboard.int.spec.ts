import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialStreamId, type TestimonialEvent } from '@shop/shared/contracts/testimonial-events';
import type { DomainEvent } from '@shop/shared/eventstore/types';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { ACCOUNTS_FIGURES_PROJECTION, CATALOG_FIGURES_PROJECTION } from './index.ts';
import type { DashboardStats } from './read-models/orders/dashboard-stats.ts';
import { startOrderTestHost, type OrderTestHost } from './testing/order-test-host.ts';
import { paymentVerifiedData, placePaidOrder } from './testing/payments.ts';
import { openEventStream, type EventStreamReader } from './testing/sse-client.ts';

// The services' clock: 23 November 2026, 11:30 in India. Tests move it to watch the days roll.
let now = new Date('2026-11-23T06:00:00.000Z');
let db: TestDatabase;
let host: OrderTestHost;
let admin: string;
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  host = await startOrderTestHost({ databaseUrl: db.url, clock: () => now });
  admin = await host.login();
});
afterAll(async () => {
  for (const s of streams) s.close();
  await host?.close();
  await db?.drop();
});

const stats = async () => {
  const r = await host.api<DashboardStats>('GET', '/api/orders/admin/stats', { token: admin });
  expect(r.status).toBe(200);
  return r.body;
};
const day = (s: DashboardStats, date: string) => s.revenueByDay.find((d) => d.date === date);

/** A paid order placed (verified) at `placedAt`, as the admin list shows it. */
const placeOrderAt = (placedAt: string, totalPaise: number) =>
  placePaidOrder(host.ctx, paymentVerifiedData({ verifiedAt: placedAt, totalPaise }));

/** Appends events to another service's log, as that service would, and waits for `consumer` to apply them. */
async function appendAndWait(schema: string, consumer: string, streamId: string, events: DomainEvent[]) {
  const r = await host.ctx.eventStore(schema).append(streamId, 'any', events);
  const ok = await host.ctx.waitForProjection({
    schema: 'orders',
    consumer,
    streamId,
    version: r.nextExpectedVersion,
    timeoutMs: 10_000,
  });
  if (!ok) throw new Error(`${consumer} did not reach ${streamId}@${r.nextExpectedVersion}`);
}
const testimonial = (id: string, events: TestimonialEvent[]) =>
  appendAndWait('accounts', ACCOUNTS_FIGURES_PROJECTION, testimonialStreamId(id), events);
const catalogEvents = (streamId: string, events: DomainEvent[]) =>
  appendAndWait('catalog', CATALOG_FIGURES_PROJECTION, streamId, events);
const at = '2026-11-23T05:00:00.000Z';
const productCreated = (productId: string, sizeLabels: string[] = []): DomainEvent => ({
  type: 'ProductCreated',
  data: {
    productId,
    name: `Kurta ${productId}`,
    pricePaise: 99900,
    description: '',
    category: 'Men',
    size: '',
    color: '',
    brand: '',
    material: '',
    image: '',
    sizeLabels,
    createdAt: at,
  },
});
const stockSet = (productId: string, size: string | null, available: number): DomainEvent => ({
  type: 'StockLevelSet',
  data: { productId, size, available, at },
});
const stockMoved = (
  type: 'StockReserved' | 'StockReleased',
  productId: string,
  size: string | null,
  quantity: number,
) => ({
  type,
  data: { productId, size, reservationId: `${randomUUID()}#0`, quantity, reason: 'expired', at },
});
const stockStream = (productId: string, size: string | null) =>
  size === null ? `stock-${productId}` : `stock-${productId}:${size}`;

describe('admin dashboard figures', () => {
  it('are for admins only: 401 without a token, 403 for a shopper', async () => {
    const shopper = await host.register('Kiran', 'kiran@example.in');
    expect((await host.api('GET', '/api/orders/admin/stats')).status).toBe(401);
    expect((await host.api('GET', '/api/orders/admin/stats', { token: shopper.token })).status).toBe(403);
  });

  it('give revenue for each of the last 30 India-time days, zero days included, split at India’s midnight', async () => {
    const before = await stats();
    expect(before.revenueByDay).toHaveLength(30);
    expect(before.revenueByDay[0]!.date).toBe('2026-10-25');
    expect(before.revenueByDay[29]!.date).toBe('2026-11-23');

    await placeOrderAt('2026-11-22T18:29:59.000Z', 100050); // 22 Nov, 23:59:59 in India
    await placeOrderAt('2026-11-22T18:30:00.000Z', 250000); // 23 Nov, 00:00 in India
    await placeOrderAt('2026-11-23T05:59:00.000Z', 10000); // 23 Nov, 11:29 in India
    await placeOrderAt('2026-10-24T18:30:00.000Z', 70000); // 25 Oct, 00:00 in India: the first day shown
    await placeOrderAt('2026-10-24T18:29:59.000Z', 30000); // 24 Oct in India: before the 30 days
    const after = await stats();

    expect(after.totalRevenue).toBeCloseTo(before.totalRevenue + 4600.5, 2);
    expect(day(after, '2026-11-22')).toEqual({
      date: '2026-11-22',
      revenue: day(before, '2026-11-22')!.revenue + 1000.5,
      orders: day(before, '2026-11-22')!.orders + 1,
    });
    expect(day(after, '2026-11-23')).toEqual({
      date: '2026-11-23',
      revenue: day(before, '2026-11-23')!.revenue + 2600,
      orders: day(before, '2026-11-23')!.orders + 2,
    });
    expect(day(after, '2026-10-25')).toEqual({ date: '2026-10-25', revenue: 700, orders: 1 });
    expect(day(after, '2026-10-24')).toBeUndefined();
    expect(day(after, '2026-11-10')).toEqual({ date: '2026-11-10', revenue: 0, orders: 0 });
    expect(after.revenueByDay.map((d) => d.date)).toEqual(before.revenueByDay.map((d) => d.date));

    // India's next day: the window moves on by one, and 25 October drops out.
    now = new Date('2026-11-23T18:30:00.000Z');
    try {
      const next = await stats();
      expect(next.revenueByDay).toHaveLength(30);
      expect(next.revenueByDay[0]).toEqual({ date: '2026-10-26', revenue: 0, orders: 0 });
      expect(next.revenueByDay[28]).toEqual(day(after, '2026-11-23'));
      expect(next.revenueByDay[29]).toEqual({ date: '2026-11-24', revenue: 0, orders: 0 });
    } finally {
      now = new Date('2026-11-23T06:00:00.000Z');
    }
  });

  it('count orders by delivery status; a deleted delivered order leaves the count but keeps its day’s revenue', async () => {
    const n = await placeOrderAt('2026-11-21T08:00:00.000Z', 50000);
    const before = await stats();
    await host.api('PATCH', `/api/orders/admin/${n}/status`, { token: admin, body: { deliveryStatus: 'Delivered' } });
    const delivered = await stats();
    expect(delivered.ordersByStatus).toEqual({
      ...before.ordersByStatus,
      Processing: before.ordersByStatus.Processing! - 1,
      Delivered: before.ordersByStatus.Delivered! + 1,
    });
    expect((await host.api('DELETE', `/api/orders/admin/${n}`, { token: admin })).status).toBe(200);
    const deleted = await stats();
    expect(deleted.ordersByStatus.Delivered).toBe(before.ordersByStatus.Delivered);
    expect(deleted.revenueByDay).toEqual(before.revenueByDay);
    expect(deleted.totalRevenue).toBe(before.totalRevenue);
  });

  it('count registered users', async () => {
    const before = await stats();
    await host.register('Meera Iyer', 'meera@example.in');
    await waitUntil(async () => (await stats()).totalUsers === before.totalUsers + 1, 'the new user counted');
  });

  it('count testimonials waiting for moderation', async () => {
    const before = (await stats()).pendingTestimonials;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const submitted = (testimonialId: string): TestimonialEvent => ({
      type: 'TestimonialSubmitted',
      data: { testimonialId, userId: randomUUID(), rating: 5, text: 'Lovely fabric', submittedAt: at },
    });
    const moderated = (
      testimonialId: string,
      from: 'pending' | 'approved',
      to: 'pending' | 'approved',
    ): TestimonialEvent => ({
      type: 'TestimonialModerated',
      data: { testimonialId, from, to, by: 'admin', at },
    });
    await testimonial(a, [submitted(a)]);
    await testimonial(b, [submitted(b)]);
    await testimonial(c, [submitted(c)]);
    expect((await stats()).pendingTestimonials).toBe(before + 3);
    await testimonial(a, [moderated(a, 'pending', 'approved')]);
    await testimonial(b, [{ type: 'TestimonialDeleted', data: { testimonialId: b, by: 'admin', at } }]);
    expect((await stats()).pendingTestimonials).toBe(before + 1);
    await testimonial(a, [moderated(a, 'approved', 'pending')]);
    expect((await stats()).pendingTestimonials).toBe(before + 2);
  });

  it('count products, low stock (1-5 units) and out of stock from the catalog’s events, whatever order streams arrive in', async () => {
    const before = await stats();
    const [sized, plain, empty, gone] = ['dash-sized', 'dash-plain', 'dash-empty', 'dash-gone'];
    // A size's stock arrives before its product (another stream): counted once the product is there.
    await catalogEvents(stockStream(sized, 'M'), [stockSet(sized, 'M', 4)]);
    expect((await stats()).totalProducts).toBe(before.totalProducts);
    await catalogEvents(`product-${sized}`, [productCreated(sized, ['S', 'M'])]);
    await catalogEvents(stockStream(sized, 'S'), [stockSet(sized, 'S', 0)]);
    // 12 units in general; 5 held for checkouts, 1 of them released: 8 on sale.
    await catalogEvents(`product-${plain}`, [productCreated(plain)]);
    await catalogEvents(stockStream(plain, null), [
      stockSet(plain, null, 12),
      stockMoved('StockReserved', plain, null, 5),
      stockMoved('StockReleased', plain, null, 1),
    ]);
    await catalogEvents(`product-${empty}`, [productCreated(empty, ['S'])]);
    await catalogEvents(stockStream(empty, null), [stockSet(empty, null, 0)]);
    await catalogEvents(stockStream(empty, 'S'), [stockSet(empty, 'S', 0)]);
    let s = await stats();
    expect(s.totalProducts).toBe(before.totalProducts + 3);
    expect(s.lowStockProducts).toBe(before.lowStockProducts + 1); // sized: 4
    expect(s.outOfStockProducts).toBe(before.outOfStockProducts + 1); // empty

    // Holds take units off sale: 3 more held on `plain` leaves 5 (low); all of `sized` held leaves none.
    await catalogEvents(stockStream(plain, null), [stockMoved('StockReserved', plain, null, 3)]);
    await catalogEvents(stockStream(sized, 'M'), [stockMoved('StockReserved', sized, 'M', 4)]);
    s = await stats();
    expect(s.lowStockProducts).toBe(before.lowStockProducts + 1); // plain
    expect(s.outOfStockProducts).toBe(before.outOfStockProducts + 2); // empty, sized

    // A size no longer offered counts for nothing; offering it again counts it again.
    await catalogEvents(stockStream(sized, 'M'), [stockMoved('StockReleased', sized, 'M', 2)]);
    expect((await stats()).lowStockProducts).toBe(before.lowStockProducts + 2);
    const changed = (sizeLabels: string[]): DomainEvent => ({
      type: 'ProductDetailsChanged',
      data: { productId: sized, sizeLabels, changedAt: at },
    });
    await catalogEvents(`product-${sized}`, [changed(['S'])]);
    expect((await stats()).outOfStockProducts).toBe(before.outOfStockProducts + 2);
    await catalogEvents(`product-${sized}`, [changed(['S', 'M'])]);
    expect((await stats()).lowStockProducts).toBe(before.lowStockProducts + 2);

    // A deleted product is gone from every count, even when a stock event of its arrives afterwards.
    await catalogEvents(`product-${gone}`, [productCreated(gone)]);
    await catalogEvents(stockStream(gone, null), [stockSet(gone, null, 2)]);
    expect((await stats()).lowStockProducts).toBe(before.lowStockProducts + 3);
    await catalogEvents(`product-${gone}`, [{ type: 'ProductDeleted', data: { productId: gone, at } }]);
    await catalogEvents(stockStream(gone, null), [stockMoved('StockReleased', gone, null, 2)]);
    s = await stats();
    expect(s.totalProducts).toBe(before.totalProducts + 3);
    expect(s.lowStockProducts).toBe(before.lowStockProducts + 2);
    expect(s.outOfStockProducts).toBe(before.outOfStockProducts + 1);
  });

  it('are pushed to admins on connect and whenever an order, a user, a testimonial or a stock count changes', async () => {
    const stream = await openEventStream(`${host.url}/api/orders/stream`, { token: admin });
    streams.push(stream);
    const figures = () => stream.events.filter((e) => e.event === 'stats').map((e) => e.json<DashboardStats>());
    await stream.waitUntil(() => figures().length > 0, 'the figures on connect');
    const first = figures()[0]!;
    expect(first).toEqual(await stats());
    expect(first.revenueByDay).toHaveLength(30);

    const pushed = (check: (s: DashboardStats) => boolean, what: string) =>
      stream.waitUntil(() => figures().some(check), what, 10_000);
    await host.register('Farah Khan', 'farah@example.in');
    await pushed((s) => s.totalUsers === first.totalUsers + 1, 'figures with the new user');

    const t = randomUUID();
    await testimonial(t, [
      {
        type: 'TestimonialSubmitted',
        data: { testimonialId: t, userId: randomUUID(), rating: 4, text: 'Quick delivery', submittedAt: at },
      },
    ]);
    await pushed((s) => s.pendingTestimonials === first.pendingTestimonials + 1, 'figures with the new testimonial');

    const p = `push-${randomUUID()}`;
    await catalogEvents(`product-${p}`, [productCreated(p)]);
    await pushed((s) => s.totalProducts === first.totalProducts + 1, 'figures with the new product');
    await catalogEvents(stockStream(p, null), [stockSet(p, null, 3)]);
    await pushed((s) => s.lowStockProducts === first.lowStockProducts + 1, 'figures with the product low on stock');

    await placeOrderAt('2026-11-23T05:30:00.000Z', 123400);
    await pushed(
      (s) =>
        s.totalOrders === first.totalOrders + 1 &&
        day(s, '2026-11-23')!.revenue === day(first, '2026-11-23')!.revenue + 1234,
      "figures with the new order in today's revenue",
    );
  });
});
