import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import type { DashboardStats } from './read-models/orders/dashboard-stats.ts';
import type { OrderView } from './read-models/orders/orders-queries.ts';
import { indiaDate } from './read-models/orders/india-days.ts';
import { openEventStream } from './testing/sse-client.ts';

// The whole shop: the figures come from the events the catalog and accounts services really record.
let shop: TestShop;
let admin: string;
beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
});
afterAll(() => shop.stop());

const stats = async () => (await shop.api<DashboardStats>('GET', '/api/orders/admin/stats', { token: admin })).body;
async function createProduct(name: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name, price: '800', category: 'Men', ...fields })) form.append(k, v);
  const r = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
  expect(r.status).toBe(201);
  return r.body.id;
}
/** Waits until the figures show `expected` (the order service follows the other services' logs). */
const figuresReach = (expected: Partial<DashboardStats>, what: string) =>
  waitUntil(async () => {
    const s = await stats();
    return Object.entries(expected).every(([k, v]) => s[k as keyof DashboardStats] === v) ? s : null;
  }, what);

describe('dashboard figures of a running shop', () => {
  it('follow products created, units sold, products deleted, users registered and orders paid; pushed to admins', async () => {
    const before = await stats();
    const stream = await openEventStream(`${shop.url}/api/orders/stream`, { token: admin });
    try {
      const shirt = await createProduct('Oxford Shirt', { quantity: '6' }); // 6 units: in stock
      const kurta = await createProduct('Sized Kurta', { quantity: '0', sizeQuantities: '{"S":1,"M":1}' }); // 2: low
      const socks = await createProduct('Ankle Socks', { quantity: '0' }); // none: out of stock
      await figuresReach(
        {
          totalProducts: before.totalProducts + 3,
          lowStockProducts: before.lowStockProducts + 1,
          outOfStockProducts: before.outOfStockProducts + 1,
        },
        'the new products counted',
      );

      const orders = [
        await buyThroughSandbox(shop, 1, [{ productId: shirt, quantity: 1 }]), // 5 left: low
        await buyThroughSandbox(shop, 2, [
          { productId: kurta, size: 'S', quantity: 1 },
          { productId: kurta, size: 'M', quantity: 1 },
        ]), // none left
      ];
      await figuresReach(
        { lowStockProducts: before.lowStockProducts + 1, outOfStockProducts: before.outOfStockProducts + 2 },
        'the sold units counted',
      );
      expect((await shop.api('DELETE', `/api/products/${socks}`, { token: admin })).status).toBe(200);
      await figuresReach(
        { totalProducts: before.totalProducts + 2, outOfStockProducts: before.outOfStockProducts + 1 },
        'the deleted product gone from the counts',
      );

      const r = await shop.api('POST', '/api/auth/register', {
        body: { name: 'Nisha', email: 'nisha@example.in', phone: '+919800000001', password: 'secret1' },
      });
      expect(r.status).toBe(201);
      const after = await figuresReach({ totalUsers: before.totalUsers + 1 }, 'the new user counted');

      // The paid orders are in their India-time day (today's, unless a midnight passed since).
      const all = (await shop.api<OrderView[]>('GET', '/api/orders/admin/all', { token: admin })).body;
      const paid = all.filter((o) => orders.includes(o.orderNumber));
      expect(paid).toHaveLength(2);
      expect(after.totalOrders).toBe(before.totalOrders + 2);
      expect(after.ordersByStatus.Processing).toBe(before.ordersByStatus.Processing! + 2);
      expect(after.revenueByDay).toHaveLength(30);
      expect(after.revenueByDay[29]!.date).toBe(indiaDate(new Date()));
      for (const o of paid) {
        const day = (s: DashboardStats) => s.revenueByDay.find((d) => d.date === indiaDate(o.createdAt));
        const sameDay = paid.filter((p) => indiaDate(p.createdAt) === indiaDate(o.createdAt));
        expect(day(after)!.orders).toBe((day(before)?.orders ?? 0) + sameDay.length);
        expect(day(after)!.revenue).toBeCloseTo(
          (day(before)?.revenue ?? 0) + sameDay.reduce((sum, p) => sum + p.totalAmount, 0),
          2,
        );
      }

      // An admin's push stream carried the same figures.
      await stream.waitUntil(
        () =>
          stream.events.some((e) => e.event === 'stats' && e.json<DashboardStats>().totalUsers === after.totalUsers),
        'the figures pushed with the new user',
      );
      const last = stream.events
        .filter((e) => e.event === 'stats')
        .at(-1)!
        .json<DashboardStats>();
      expect(last).toEqual(after);
    } finally {
      stream.close();
    }
  });
});
