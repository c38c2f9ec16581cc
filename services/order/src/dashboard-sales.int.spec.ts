import { describe, expect, it } from 'vitest';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { testShopForTests } from '@shop/test-support/file-shop';
import { createProduct as listProduct } from '@shop/test-support/fixtures';
import { waitUntil } from '@shop/test-support/wait-until';
import type { DashboardStats } from './read-models/orders/dashboard-stats.ts';
import type { OrderView } from './read-models/orders/orders-queries.ts';
import { indiaDate } from '@shop/shared/time/india-date';
import { openEventStream } from './testing/sse-client.ts';

// The whole shop: the figures come from the events the catalog and accounts services really record.
const running = testShopForTests();

const stats = async () =>
  (await running.shop.api<DashboardStats>('GET', '/api/orders/admin/stats', { token: running.admin })).body;
const createProduct = (name: string, fields: Record<string, string>) =>
  listProduct(running.shop.api, running.admin, { name, price: '800', category: 'Men', ...fields });
/** Waits until the figures show `expected` (the order service follows the other services' logs). */
const figuresReach = (expected: Partial<DashboardStats>, what: string) =>
  waitUntil(async () => {
    const s = await stats();
    return Object.entries(expected).every(([k, v]) => s[k as keyof DashboardStats] === v) ? s : null;
  }, what);

describe('dashboard figures of a running shop', () => {
  it('follow products created, units sold, products deleted, users registered and orders paid; pushed to admins', async () => {
    const before = await stats();
    const stream = await openEventStream(`${running.shop.url}/api/orders/stream`, { token: running.admin });
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
        await buyThroughSandbox(running.shop, 1, [{ productId: shirt, quantity: 1 }]), // 5 left: low
        await buyThroughSandbox(running.shop, 2, [
          { productId: kurta, size: 'S', quantity: 1 },
          { productId: kurta, size: 'M', quantity: 1 },
        ]), // none left
      ];
      await figuresReach(
        { lowStockProducts: before.lowStockProducts + 1, outOfStockProducts: before.outOfStockProducts + 2 },
        'the sold units counted',
      );
      expect((await running.shop.api('DELETE', `/api/products/${socks}`, { token: running.admin })).status).toBe(200);
      await figuresReach(
        { totalProducts: before.totalProducts + 2, outOfStockProducts: before.outOfStockProducts + 1 },
        'the deleted product gone from the counts',
      );

      const r = await running.shop.api('POST', '/api/auth/register', {
        body: { name: 'Nisha', email: 'nisha@example.in', phone: '+919800000001', password: 'secret1' },
      });
      expect(r.status).toBe(201);
      const after = await figuresReach({ totalUsers: before.totalUsers + 1 }, 'the new user counted');

      // The paid orders are in their India-time day (today's, unless a midnight passed since).
      const all = (await running.shop.api<OrderView[]>('GET', '/api/orders/admin/all', { token: running.admin })).body;
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
