import { describe, expect, it } from 'vitest';
import { buyThroughSandbox } from '@shop/test-support/purchase';
import { testShopForTests } from '@shop/test-support/file-shop';
import { createProduct as listProduct } from '@shop/test-support/fixtures';
import { waitUntil } from '@shop/test-support/wait-until';
import type { ProductView } from '../read-models/products/products-queries.ts';

const running = testShopForTests();

const createProduct = (name: string, fields: Record<string, string> = {}) =>
  listProduct(running.shop.api, running.admin, { name, price: '800', quantity: '10', category: 'Women', ...fields });
const list = async (query = '', token?: string) => {
  const r = await running.shop.api<ProductView[]>('GET', `/api/products${query}`, { token });
  expect(r.status).toBe(200);
  return r.body.map((p) => p.id);
};

describe('GET /api/products?sort=best-selling', () => {
  it('lists newest first while nothing has sold; an unknown sort is a 400', async () => {
    const ids = [
      await createProduct('Cotton Saree'),
      await createProduct('Silk Dupatta'),
      await createProduct('Lehenga'),
    ];
    expect(await list('?sort=best-selling')).toEqual([...ids].reverse());
    expect(await list('?sort=best-selling')).toEqual(await list());

    for (const sort of ['price', 'best-sellers', '']) {
      const r = await running.shop.api<{ message: string }>('GET', `/api/products?sort=${sort}`);
      expect(r.status, sort).toBe(400);
      expect(r.body.message).toMatch(/sort/);
    }
  });

  it('ranks listed products by units sold, all sizes together, equal sales newest first', async () => {
    const unsold = await list();
    const shirt = await createProduct('Linen Shirt');
    const kurta = await createProduct('Sized Kurta', { sizeQuantities: JSON.stringify({ S: 3, M: 3 }) });
    const scarf = await createProduct('Wool Scarf');
    const jacket = await createProduct('Nehru Jacket');

    await buyThroughSandbox(running.shop, 1, [{ productId: shirt, quantity: 1 }]);
    await buyThroughSandbox(running.shop, 2, [
      { productId: kurta, size: 'S', quantity: 1 },
      { productId: kurta, size: 'M', quantity: 2 },
    ]);
    await buyThroughSandbox(running.shop, 3, [{ productId: scarf, quantity: 1 }]);
    await buyThroughSandbox(running.shop, 4, [{ productId: jacket, quantity: 4 }]);
    // The jacket sold most, but a delisted product is not for the public.
    expect(
      (
        await running.shop.api('PUT', `/api/products/${jacket}/delist`, {
          token: running.admin,
          body: { isDelisted: true },
        })
      ).status,
    ).toBe(200);

    // kurta 3, then scarf and shirt 1 each (scarf is newer), then the unsold ones newest first.
    const expected = [kurta, scarf, shirt, ...unsold];
    await waitUntil(
      async () => JSON.stringify(await list('?sort=best-selling')) === JSON.stringify(expected),
      'the best sellers to rank the sales',
    );
    // Admins asking for delisted products too see the jacket first.
    expect(await list('?sort=best-selling&includeDelisted=true', running.admin)).toEqual([jacket, ...expected]);
    // The plain list stays newest first.
    expect(await list()).toEqual([scarf, kurta, shirt, ...unsold]);
  });
});
