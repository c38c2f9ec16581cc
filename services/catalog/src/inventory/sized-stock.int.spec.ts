import { describe, expect, it } from 'vitest';
import { sandboxPay } from '../../../razorpay-sandbox/src/sandbox-pay.ts';
import { testShopForTests } from '@shop/test-support/file-shop';
import { guestOrderData, waitForPlacedOrder } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';

interface Product {
  id: string;
  quantity: number;
  sizeQuantities: Record<string, number>;
}

const running = testShopForTests();

async function createProduct(fields: Record<string, string>): Promise<Product> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const r = await running.shop.api<Product>('POST', '/api/products', { token: running.admin, form });
  expect(r.status).toBe(201);
  return r.body;
}

/** Checks out one line and pays for it through the sandbox; the answer of create-order when refused. */
async function buy(buyer: number, productId: string, size: string | null, quantity: number) {
  const created = await running.shop.api<{ id: string; title?: string; message?: string }>(
    'POST',
    '/api/payment/create-order',
    {
      body: {
        amount: 1,
        orderData: guestOrderData(buyer, [{ productId, quantity, size }], {
          customerEmail: `sized${buyer}@example.in`,
        }),
      },
    },
  );
  if (created.status !== 201) return { paid: false as const, status: created.status, body: created.body };
  const verified = await running.shop.api<{ orderNumber: string; orderToken: string }>('POST', '/api/payment/verify', {
    body: await sandboxPay(`${running.shop.url}/razorpay-sandbox`, created.body.id),
  });
  expect(verified.status).toBe(200);
  // Verify answers once the payment is recorded; the order (and the stock it commits) follows.
  await waitForPlacedOrder(running.shop, verified.body.orderToken, verified.body.orderNumber);
  return { paid: true as const, status: created.status, body: created.body };
}

describe('sized products: one truth of units', () => {
  it('never sells more than the sizes hold: lines with and without a size draw on the same units (issue 15 defect 1)', async () => {
    const p = await createProduct({
      name: 'Sized Kurta',
      price: '500',
      category: 'Men',
      quantity: '3',
      sizeQuantities: JSON.stringify({ S: 1, M: 2 }),
    });
    // The total of a sized product is the sum of its sizes.
    expect(p).toMatchObject({ quantity: 3, sizeQuantities: { S: 1, M: 2 } });

    // The defect's repro: 1 with no size, S x1, M x2, then S x1 and M x1 after the sizes show 0.
    const noSize = await buy(1, p.id, null, 1);
    expect(noSize.paid).toBe(true);
    expect((await buy(2, p.id, 'S', 1)).paid).toBe(true);
    const m2 = await buy(3, p.id, 'M', 2);
    expect(m2).toMatchObject({
      paid: false,
      status: 409,
      body: {
        title: 'Size not available',
        message: 'Sized Kurta - Size M only has 1 item(s) available. You requested 2.',
      },
    });
    expect((await buy(4, p.id, 'M', 1)).paid).toBe(true);
    const late = [await buy(5, p.id, 'S', 1), await buy(6, p.id, 'M', 1), await buy(7, p.id, null, 1)];
    expect(late.map((r) => r.paid)).toEqual([false, false, false]);
    expect(late.map((r) => r.status)).toEqual([409, 409, 409]);
    expect(late[2]!.body).toMatchObject({ message: 'Sized Kurta only has 0 item(s) available. You requested 1.' });

    // The product's read model follows the sales (committed after verify answers).
    const after = await waitUntil(async () => {
      const read = await running.shop.api<Product>('GET', `/api/products/${p.id}`);
      return read.body.quantity === 0 ? read : undefined;
    }, 'the product to show its units sold');
    expect(after.body).toMatchObject({ quantity: 0, sizeQuantities: { S: 0, M: 0 } });
    const sold = await running.shop.db.pool.query<{ n: number }>(
      `SELECT coalesce(sum((data->>'quantity')::int), 0)::int AS n FROM catalog.events
        WHERE type = 'StockCommitted' AND data->>'productId' = $1`,
      [p.id],
    );
    expect(sold.rows[0]!.n).toBe(3);
  });

  it('a line with no size needs only the total and takes its units out of the sizes', async () => {
    const p = await createProduct({
      name: 'Split Tee',
      price: '300',
      quantity: '0',
      sizeQuantities: JSON.stringify({ S: 1, M: 2, L: 0 }),
    });
    expect((await buy(10, p.id, null, 4)).body).toMatchObject({
      title: 'Not enough stock',
      message: 'Split Tee only has 3 item(s) available. You requested 4.',
    });
    expect((await buy(11, p.id, null, 3)).paid).toBe(true);
    const sold = await waitUntil(async () => {
      const read = await running.shop.api<Product>('GET', `/api/products/${p.id}`);
      return read.body.quantity === 0 ? read : undefined;
    }, 'the product to show its units sold');
    expect(sold.body).toMatchObject({
      quantity: 0,
      sizeQuantities: { S: 0, M: 0, L: 0 },
    });
    const orders = await running.shop.api<Array<{ items: Array<{ orderedQuantity: number; size: string | null }> }>>(
      'GET',
      '/api/orders/admin/all',
      { token: running.admin },
    );
    const mine = orders.body.filter((o) => o.items.some((i) => i.orderedQuantity === 3));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.items).toHaveLength(1);
  });

  it('an edit that empties the sizes moves the product to its quantity; sizes can no longer be sold', async () => {
    const p = await createProduct({ name: 'Edit Shirt', price: '700', quantity: '0', sizeQuantities: '{"S": 2}' });
    const upd = await running.shop.api<Product>('PUT', `/api/products/${p.id}`, {
      token: running.admin,
      body: { quantity: 4, sizeQuantities: { S: 0 } },
    });
    expect(upd.body).toMatchObject({ quantity: 4, sizeQuantities: { S: 0 } });
    expect((await buy(20, p.id, 'S', 1)).paid).toBe(true); // no size stock: the seeds' rule uses the total
    await waitUntil(
      async () => (await running.shop.api<Product>('GET', `/api/products/${p.id}`)).body.quantity === 3,
      'the product to show the unit sold',
    );
    const qtyOnly = await running.shop.api<{ message: string }>('PUT', `/api/products/${p.id}`, {
      token: running.admin,
      body: { sizeQuantities: { S: 5 } },
    });
    expect(qtyOnly.body).toMatchObject({ quantity: 5, sizeQuantities: { S: 5 } });
    expect(
      (
        await running.shop.api<{ message: string }>('PUT', `/api/products/${p.id}`, {
          token: running.admin,
          body: { quantity: 9 },
        })
      ).body.message,
    ).toMatch(/stocked by size/);
  });
});
