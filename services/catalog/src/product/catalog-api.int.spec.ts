import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartForm, type FormFile } from '@shop/test-support/http';
import { startShopWithShopper, type TestShop } from '@shop/test-support/test-shop';
import { PNG_1X1 as PNG } from '@shop/test-support/fixtures';

interface Product {
  id: string;
  name: string;
  price: number;
  quantity: number;
  sizeQuantities: Record<string, number>;
  isDelisted: boolean;
  image: string;
  category: string;
}


let shop: TestShop;
let admin: string;
let shopper: string;
beforeAll(async () => {
  ({ shop, admin, shopper } = await startShopWithShopper({ seed: true }, { name: 'Ravi', email: 'ravi@example.in', phone: '+919800000002' }));
});
afterAll(() => shop.stop());

const productForm = (fields: Record<string, string>, image?: Omit<FormFile, 'field'>) =>
  multipartForm(fields, image ? [{ field: 'image', ...image }] : []);

describe('catalog API', () => {
  it('serves the seeded demo catalog: 30+ listed products in Men, Women and Kids, some out of stock, delisted ones hidden', async () => {
    const r = await shop.api<Product[]>('GET', '/api/products');
    expect(r.status).toBe(200);
    const all = await shop.api<Product[]>('GET', '/api/products?includeDelisted=true', { token: admin });
    expect(all.body.length).toBeGreaterThanOrEqual(30);
    expect(new Set(all.body.map((p) => p.category))).toEqual(new Set(['Men', 'Women', 'Kids']));
    expect(r.body.every((p) => !p.isDelisted)).toBe(true);
    expect(all.body.filter((p) => p.isDelisted).length).toBeGreaterThan(0);
    expect(r.body.length).toBe(all.body.length - all.body.filter((p) => p.isDelisted).length);
    const soldOut = r.body.filter((p) => p.quantity <= 0 && Object.values(p.sizeQuantities).every((n) => n <= 0));
    expect(soldOut.length).toBeGreaterThan(0);
    const img = await fetch(shop.url + r.body[0]!.image);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toMatch(/^image\//);
  });

  it('ignores includeDelisted for shoppers and visitors', async () => {
    const visitor = await shop.api<Product[]>('GET', '/api/products?includeDelisted=true');
    const asShopper = await shop.api<Product[]>('GET', '/api/products?includeDelisted=true', { token: shopper });
    expect(visitor.body.every((p) => !p.isDelisted)).toBe(true);
    expect(asShopper.body.every((p) => !p.isDelisted)).toBe(true);
    expect((await shop.api('GET', '/api/products?includeDelisted=maybe')).status).toBe(400);
  });

  it('creates a product from a multipart form with an image and per-size stock; it shows in the list at once', async () => {
    const r = await shop.api<Product & { message: string }>('POST', '/api/products', {
      token: admin,
      form: productForm(
        {
          name: 'Saffron Silk Kurta',
          price: '2499.50',
          description: 'Festive',
          category: 'Men',
          quantity: '3',
          size: 'S, M',
          color: 'Saffron',
          brand: 'Kapda',
          material: 'Silk',
          sizeQuantities: JSON.stringify({ S: 2, M: 0, XL: 5 }),
        },
        { bytes: PNG, type: 'image/png', name: 'kurta.png' },
      ),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Product added',
      name: 'Saffron Silk Kurta',
      price: 2499.5,
      // sold by size: the total is the sum of the sizes, not the form's quantity
      quantity: 7,
      sizeQuantities: { S: 2, M: 0, XL: 5 },
      isDelisted: false,
    });
    expect(Object.keys(r.body.sizeQuantities)).toEqual(['S', 'M', 'XL']);
    expect(r.body.image).toMatch(/^\/uploads\/[0-9a-f-]{36}_w1\/1\.jpg$/);
    const list = await shop.api<Product[]>('GET', '/api/products');
    expect(list.body.find((p) => p.id === r.body.id)?.name).toBe('Saffron Silk Kurta');
    const one = await shop.api<Product>('GET', `/api/products/${r.body.id}`);
    expect(one.body.sizeQuantities).toEqual({ S: 2, M: 0, XL: 5 });
  });

  it('refuses bad products with clear 400s and writes nothing', async () => {
    const before = await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events');
    const bad = async (fields: Record<string, string>, image?: { bytes: Buffer; type: string; name: string }) =>
      shop.api<{ message: string }>('POST', '/api/products', { token: admin, form: productForm(fields, image) });
    expect(await bad({ price: '10', quantity: '1' })).toMatchObject({
      status: 400,
      body: { message: 'Please fill name, price, and quantity' },
    });
    expect(await bad({ name: 'X', price: 'ten', quantity: '1' })).toMatchObject({
      status: 400,
      body: { message: 'Please fill name, price, and quantity' },
    });
    expect((await bad({ name: 'X', price: '10', quantity: '1', sizeQuantities: '{"S": -1}' })).body.message).toMatch(
      /whole number of at least 0/,
    );
    expect(
      (await bad({ name: 'X', price: '10', quantity: '1', sizeQuantities: '{"S": 1, " s ": 2}' })).body.message,
    ).toMatch(/repeated/);
    expect((await bad({ name: 'X', price: '10', quantity: '1', sizeQuantities: 'not json' })).status).toBe(400);
    expect(
      (
        await bad(
          { name: 'X', price: '10', quantity: '1' },
          { bytes: Buffer.from('<script>alert(1)</script>'), type: 'image/png', name: 'x.png' },
        )
      ).body.message,
    ).toMatch(/Only image files/);
    expect(
      (await bad({ name: 'X', price: '10', quantity: '1' }, { bytes: PNG, type: 'text/html', name: 'x.html' })).body
        .message,
    ).toMatch(/Only image files/);
    expect(
      (
        await bad(
          { name: 'X', price: '10', quantity: '1' },
          { bytes: Buffer.alloc(6 * 1024 * 1024, 0x89), type: 'image/png', name: 'big.png' },
        )
      ).status,
    ).toBe(413);
    const after = await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('updates with JSON, delists and activates, and deletes; admins only', async () => {
    const created = await shop.api<Product>('POST', '/api/products', {
      token: admin,
      form: productForm({ name: 'Plain Tee', price: '499', quantity: '10' }),
    });
    const id = created.body.id;
    expect((await shop.api('PUT', `/api/products/${id}`, { body: { price: 1 } })).status).toBe(401);
    expect((await shop.api('PUT', `/api/products/${id}`, { token: shopper, body: { price: 1 } })).status).toBe(403);
    const upd = await shop.api<Product>('PUT', `/api/products/${id}`, {
      token: admin,
      body: { price: 449.99, quantity: 0, sizeQuantities: { M: 4 } },
    });
    expect(upd).toMatchObject({ status: 200, body: { price: 449.99, quantity: 4, sizeQuantities: { M: 4 } } });

    expect(
      (await shop.api('PUT', `/api/products/${id}/delist`, { token: shopper, body: { isDelisted: true } })).status,
    ).toBe(403);
    expect(
      (await shop.api('PUT', `/api/products/${id}/delist`, { token: admin, body: { isDelisted: 'yes' } })).status,
    ).toBe(400);
    expect(
      (await shop.api<Product>('PUT', `/api/products/${id}/delist`, { token: admin, body: { isDelisted: true } })).body
        .isDelisted,
    ).toBe(true);
    expect((await shop.api<Product[]>('GET', '/api/products')).body.some((p) => p.id === id)).toBe(false);
    expect((await shop.api<Product>('GET', `/api/products/${id}`)).body.isDelisted).toBe(true);
    expect(
      (await shop.api<Product>('PUT', `/api/products/${id}/delist`, { token: admin, body: { isDelisted: false } })).body
        .isDelisted,
    ).toBe(false);
    expect((await shop.api<Product[]>('GET', '/api/products')).body.some((p) => p.id === id)).toBe(true);

    expect((await shop.api('DELETE', `/api/products/${id}`, { token: shopper })).status).toBe(403);
    expect((await shop.api('DELETE', `/api/products/${id}`, { token: admin })).status).toBe(200);
    expect((await shop.api('GET', `/api/products/${id}`)).status).toBe(404);
    expect((await shop.api('DELETE', `/api/products/${id}`, { token: admin })).status).toBe(404);
    expect((await shop.api<Product[]>('GET', '/api/products')).body.some((p) => p.id === id)).toBe(false);
    const types = (
      await shop.db.pool.query(`SELECT type FROM catalog.events WHERE stream_id = $1 ORDER BY stream_version`, [
        `product-${id}`,
      ])
    ).rows.map((r) => r.type);
    expect(types).toEqual([
      'ProductCreated',
      'ProductDetailsChanged',
      'ProductDelisted',
      'ProductRelisted',
      'ProductDeleted',
    ]);
  });

  it('answers unknown ids and paths with JSON 404s', async () => {
    expect(await shop.api('GET', '/api/products/nope')).toMatchObject({
      status: 404,
      body: { message: 'Product not found' },
    });
    expect(await shop.api('GET', '/api/products/..%2F..')).toMatchObject({ status: 400 });
    expect((await shop.api<{ message: string }>('GET', '/api/nothing-here')).status).toBe(404);
    expect((await shop.api('GET', '/uploads/missing.png')).status).toBe(404);
  });
});
