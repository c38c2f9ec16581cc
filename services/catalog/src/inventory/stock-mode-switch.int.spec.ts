import { describe, expect, it } from 'vitest';
import { sandboxPay } from '../../../razorpay-sandbox/src/sandbox-pay.ts';
import { testShopForTests } from '@shop/test-support/file-shop';
import type { ShopUnderTest } from '@shop/test-support/file-shop';
import { fromBuyer, guestOrder, type PurchaseLine } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';
import { PRODUCTS_PROJECTION } from '../read-models/products/products-projection.ts';

interface Product {
  id: string;
  quantity: number;
  sizeQuantities: Record<string, number>;
}

/**
 * Issue 27 item 2: switching a product between one stock count and per-size stock while a checkout holds
 * units. The admin's level is what is on sale now; a hold taken under the old mode is paid for as a sale,
 * or, released, goes back only into the count of a product now sold by one count (a unit of any size is a
 * unit of the count), never into a size or count the admin did not set (stockEventsFor).
 */
function shopHelpers(running: Readonly<ShopUnderTest>) {
  let receipt = 0;
  const api = () => running.shop.api;
  const helpers = {
    async createProduct(fields: Record<string, string>): Promise<Product> {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const r = await api()<Product>('POST', '/api/products', { token: running.admin, form });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    },
    async edit(productId: string, body: Record<string, unknown>): Promise<Product> {
      const r = await api()<Product>('PUT', `/api/products/${productId}`, { token: running.admin, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    },
    /** A guest's create-order: units held until paid or lapsed. */
    hold: (buyer: number, lines: PurchaseLine[]) =>
      api()<{ id: string; title?: string; message?: string }>('POST', '/api/payment/create-order', {
        headers: fromBuyer(buyer),
        body: guestOrder(`rcpt_mode_${buyer}_${receipt++}`, buyer, lines),
      }),
    async pay(buyer: number, paymentOrderId: string) {
      return api()('POST', '/api/payment/verify', {
        headers: fromBuyer(buyer),
        body: await sandboxPay(`${running.shop.url}/razorpay-sandbox`, paymentOrderId),
      });
    },
    /** Holds and pays; the create-order answer when it was refused. */
    async buy(buyer: number, lines: PurchaseLine[]) {
      const held = await helpers.hold(buyer, lines);
      if (held.status !== 201) return { paid: false as const, status: held.status, body: held.body };
      expect((await helpers.pay(buyer, held.body.id)).status).toBe(200);
      return { paid: true as const, status: held.status, body: held.body };
    },
    /** The product as the shop shows it once its read model has every stock event recorded so far (a sale's commit changes nothing there). */
    async product(productId: string): Promise<Product> {
      const { rows } = await running.shop.db.pool.query<{ stream_id: string; v: number }>(
        `SELECT stream_id, max(stream_version)::int AS v FROM catalog.events
          WHERE (stream_id = $1 OR stream_id LIKE $2) AND type <> 'StockCommitted' GROUP BY stream_id`,
        [`stock-${productId}`, `stock-${productId}:%`],
      );
      for (const r of rows)
        expect(
          await running.shop.infra.context.waitForProjection({
            schema: 'catalog',
            consumer: PRODUCTS_PROJECTION,
            streamId: r.stream_id,
            version: r.v,
          }),
        ).toBe(true);
      return (await api()<Product>('GET', `/api/products/${productId}`)).body;
    },
    /** Waits until the product's holds are all released (the checkout's expiry sweep). */
    async lapsed(productId: string, holds: number) {
      await waitUntil(
        async () => {
          const { rows } = await running.shop.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM catalog.events
              WHERE type = 'StockReleased' AND data->>'productId' = $1 AND data->'movedTo' IS NULL`,
            [productId],
          );
          return rows[0]!.n >= holds;
        },
        `${holds} hold(s) of ${productId} to lapse`,
        20_000,
      );
    },
    /** Waits until the product's units sold are `expected` (checkout commits a paid hold after answering). */
    async soldBecomes(productId: string, expected: Record<string, number>) {
      await waitUntil(
        async () => JSON.stringify(await helpers.sold(productId)) === JSON.stringify(expected),
        `${productId} to have sold ${JSON.stringify(expected)}`,
      );
      expect(await helpers.sold(productId)).toEqual(expected);
    },
    /** Units sold of the product (StockCommitted), by the stock they were sold from ('' general). */
    async sold(productId: string): Promise<Record<string, number>> {
      const { rows } = await running.shop.db.pool.query<{ size: string; n: number }>(
        `SELECT coalesce(data->>'size', '') AS size, sum((data->>'quantity')::int)::int AS n FROM catalog.events
          WHERE type = 'StockCommitted' AND data->>'productId' = $1 GROUP BY 1`,
        [productId],
      );
      return Object.fromEntries(rows.map((r) => [r.size, r.n]));
    },
  };
  return helpers;
}

describe('a change of stock mode while a checkout holds units, and the hold lapses', () => {
  // A short hold so the tests can watch it lapse.
  const running = testShopForTests({ env: { RESERVATION_TTL_SECONDS: '2' } });
  const shop = shopHelpers(running);

  it('one count to sizes: a lapsed hold of the count does not come back beside the sizes (no oversell)', async () => {
    const p = await shop.createProduct({ name: 'Switch Kurta', price: '500', category: 'Men', quantity: '5' });
    expect((await shop.hold(1, [{ productId: p.id, size: null, quantity: 3 }])).status).toBe(201);
    expect(await shop.edit(p.id, { sizeQuantities: { M: 1 } })).toMatchObject({
      quantity: 1,
      sizeQuantities: { M: 1 },
    });

    await shop.lapsed(p.id, 1);
    // Before the fix: quantity 4 ({M: 1} and 3 units back in a general count the admin never set).
    expect(await shop.product(p.id)).toMatchObject({ quantity: 1, sizeQuantities: { M: 1 } });

    expect((await shop.buy(2, [{ productId: p.id, size: 'M', quantity: 1 }])).paid).toBe(true);
    // Any edit drops the checkout's copy of the product: M shows 0, so lines now draw on the general count.
    await shop.edit(p.id, { price: 550 });
    const more = await shop.buy(3, [{ productId: p.id, size: null, quantity: 1 }]);
    expect(more).toMatchObject({
      paid: false,
      status: 409,
      body: { message: 'Switch Kurta only has 0 item(s) available. You requested 1.' },
    });
    await shop.soldBecomes(p.id, { M: 1 });
    expect(await shop.product(p.id)).toMatchObject({ quantity: 0, sizeQuantities: { M: 0 } });
  });

  it('sizes to one count: a lapsed hold of a size goes back into the count, not into a size set to 0', async () => {
    const p = await shop.createProduct({
      name: 'Switch Saree',
      price: '900',
      category: 'Women',
      quantity: '0',
      sizeQuantities: JSON.stringify({ A: 2, B: 2 }),
    });
    expect((await shop.hold(10, [{ productId: p.id, size: 'A', quantity: 2 }])).status).toBe(201);
    // The admin form sends its size rows; the admin emptied them and typed one count.
    expect(await shop.edit(p.id, { quantity: 1, sizeQuantities: {} })).toMatchObject({
      quantity: 1,
      sizeQuantities: {},
    });
    await shop.lapsed(p.id, 1);
    // Before the fix: quantity 1 (the 2 units went back to a size nobody offers any more).
    expect(await shop.product(p.id)).toMatchObject({ quantity: 3, sizeQuantities: {} });
    expect((await shop.buy(11, [{ productId: p.id, size: null, quantity: 3 }])).paid).toBe(true);
    expect((await shop.buy(12, [{ productId: p.id, size: null, quantity: 1 }])).body).toMatchObject({
      message: 'Switch Saree only has 0 item(s) available. You requested 1.',
    });
    await shop.soldBecomes(p.id, { '': 3 });
  });

  it('sizes to one count with the size rows kept at 0: the lapsed hold does not make the product sold by size again', async () => {
    const p = await shop.createProduct({
      name: 'Switch Dhoti',
      price: '400',
      category: 'Men',
      quantity: '0',
      sizeQuantities: JSON.stringify({ A: 2, B: 2 }),
    });
    expect((await shop.hold(20, [{ productId: p.id, size: 'A', quantity: 2 }])).status).toBe(201);
    await shop.edit(p.id, { quantity: 1, sizeQuantities: { A: 0, B: 0 } });
    await shop.lapsed(p.id, 1);
    // Before the fix: {A: 2, B: 0}, quantity 3, a size the admin had set to 0 on sale again.
    expect(await shop.product(p.id)).toMatchObject({ quantity: 3, sizeQuantities: { A: 0, B: 0 } });
  });
});

describe('a change of stock mode while a checkout holds units, and the hold is paid for', () => {
  const running = testShopForTests({ env: { RESERVATION_TTL_SECONDS: '600' } });
  const shop = shopHelpers(running);

  it('a count alone is refused while the sizes hold units, on sale or held by a checkout', async () => {
    const p = await shop.createProduct({
      name: 'Held Kurti',
      price: '300',
      category: 'Women',
      quantity: '0',
      sizeQuantities: JSON.stringify({ A: 1 }),
    });
    expect((await shop.hold(29, [{ productId: p.id, size: 'A', quantity: 1 }])).status).toBe(201);
    const r = await running.shop.api<{ message: string }>('PUT', `/api/products/${p.id}`, {
      token: running.admin,
      body: { quantity: 5 },
    });
    expect([r.status, r.body.message]).toEqual([
      400,
      'This product is stocked by size: send sizeQuantities to change its stock',
    ]);
  });

  it('one count to sizes: the sale of the held units is kept, the sizes are what the admin set', async () => {
    const p = await shop.createProduct({ name: 'Paid Kurta', price: '500', category: 'Men', quantity: '5' });
    const held = await shop.hold(30, [{ productId: p.id, size: null, quantity: 3 }]);
    expect(held.status).toBe(201);
    await shop.edit(p.id, { sizeQuantities: { M: 1 } });
    expect((await shop.pay(30, held.body.id)).status).toBe(200);
    await shop.soldBecomes(p.id, { '': 3 });
    expect(await shop.product(p.id)).toMatchObject({ quantity: 1, sizeQuantities: { M: 1 } });
  });

  it('sizes to one count: the sale of the held size units is kept once, the count is what the admin set', async () => {
    const p = await shop.createProduct({
      name: 'Paid Saree',
      price: '900',
      category: 'Women',
      quantity: '0',
      sizeQuantities: JSON.stringify({ A: 2, B: 2 }),
    });
    const held = await shop.hold(31, [{ productId: p.id, size: null, quantity: 3 }]);
    expect(held.status).toBe(201);
    await shop.edit(p.id, { quantity: 1, sizeQuantities: {} });
    expect((await shop.pay(31, held.body.id)).status).toBe(200);
    // The hold (split over A and B) moved to the count with the switch: sold once, from there.
    await shop.soldBecomes(p.id, { '': 3 });
    expect(await shop.product(p.id)).toMatchObject({ quantity: 1, sizeQuantities: {} });
  });
});
