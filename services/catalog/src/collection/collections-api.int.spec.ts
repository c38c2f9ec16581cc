import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@shop/shared/db/pool';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { multipartForm, type FormFile } from '@shop/test-support/http';
import { startShopWithShopper, type TestShop } from '@shop/test-support/test-shop';
import { PNG_1X1 as PNG } from '@shop/test-support/fixtures';
import { collectionsProjection } from '../read-models/collections/collections-projection.ts';

interface Collection {
  id: string;
  name: string;
  description: string;
  image: string;
  Products: Array<{ id: string; name: string; isDelisted?: boolean }>;
}
interface Product {
  id: string;
  name: string;
  isDelisted: boolean;
}


let shop: TestShop;
let admin: string;
let shopper: string;
beforeAll(async () => {
  ({ shop, admin, shopper } = await startShopWithShopper({}, { name: 'Meera', email: 'meera@example.in', phone: '+919800000003' }));
});
afterAll(() => shop.stop());

const form = (fields: Record<string, string>, image?: Omit<FormFile, 'field'>) =>
  multipartForm(fields, image ? [{ field: 'image', ...image }] : []);
const newProduct = async (name: string) => {
  const r = await shop.api<Product>('POST', '/api/products', {
    token: admin,
    body: { name, price: 999, quantity: 5 },
  });
  expect(r.status).toBe(201);
  return r.body.id;
};
const newCollection = async (name: string) => {
  const r = await shop.api<Collection>('POST', '/api/collections', { token: admin, body: { name } });
  expect(r.status).toBe(201);
  return r.body.id;
};
const collections = async (token?: string) => (await shop.api<Collection[]>('GET', '/api/collections', { token })).body;
const collectionOf = async (id: string, token?: string) => (await collections(token)).find((c) => c.id === id);
const add = (collectionId: string, productId: unknown, token = admin) =>
  shop.api<Collection & { message: string }>('POST', `/api/collections/${collectionId}/products`, {
    token,
    body: { productId },
  });
const remove = (collectionId: string, productId: unknown, token = admin) =>
  shop.api<Collection & { message: string }>('DELETE', `/api/collections/${collectionId}/products`, {
    token,
    body: { productId },
  });
const eventCount = async () =>
  (await shop.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM catalog.events')).rows[0]!.n;

describe('collections API', () => {
  it('guards every admin route: 401 without a token, 403 for a shopper', async () => {
    const id = await newCollection('Guarded');
    const productId = await newProduct('Guarded Tee');
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/collections', { name: 'X' }],
      ['PUT', `/api/collections/${id}`, { name: 'X' }],
      ['DELETE', `/api/collections/${id}`, undefined],
      ['POST', `/api/collections/${id}/products`, { productId }],
      ['DELETE', `/api/collections/${id}/products`, { productId }],
    ];
    for (const [method, path, body] of routes) {
      expect((await shop.api(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401);
      expect((await shop.api(method, path, { body, token: shopper })).status, `${method} ${path} shopper`).toBe(403);
    }
    expect(await collectionOf(id)).toMatchObject({ name: 'Guarded', Products: [] });
  });

  it('creates a collection from a multipart form with an image; anyone can list it', async () => {
    const r = await shop.api<Collection & { message: string }>('POST', '/api/collections', {
      token: admin,
      form: form(
        { name: ' Festive Edit ', description: 'Diwali picks' },
        { bytes: PNG, type: 'image/png', name: 'f.png' },
      ),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Collection created',
      name: 'Festive Edit',
      description: 'Diwali picks',
      Products: [],
    });
    // re-encoded as the photo naming rule says: a 1 x 1 image has one width, its own
    expect(r.body.image).toMatch(/^\/uploads\/[0-9a-f-]{36}_w1\/1\.jpg$/);
    const img = await fetch(shop.url + r.body.image);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    const listed = await collectionOf(r.body.id);
    expect(listed).toEqual({
      id: r.body.id,
      name: 'Festive Edit',
      description: 'Diwali picks',
      image: r.body.image,
      Products: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('refuses a collection without a name, a file that is not an image, and an image over 5 MB, writing nothing', async () => {
    const before = await eventCount();
    const post = (f: FormData) => shop.api<{ message: string }>('POST', '/api/collections', { token: admin, form: f });
    expect(await post(form({ description: 'no name' }))).toMatchObject({
      status: 400,
      body: { message: 'Collection name is required' },
    });
    expect(
      (await shop.api<{ message: string }>('POST', '/api/collections', { token: admin, body: { name: '   ' } })).body,
    ).toMatchObject({ message: 'Collection name is required' });
    const html = { bytes: Buffer.from('<script>alert(1)</script>'), type: 'image/png', name: 'x.png' };
    expect(await post(form({ name: 'X' }, html))).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^Only image files/) },
    });
    expect(await post(form({ name: 'X' }, { bytes: PNG, type: 'text/html', name: 'x.html' }))).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^Only image files/) },
    });
    const big = { bytes: Buffer.alloc(6 * 1024 * 1024, 0x89), type: 'image/png', name: 'big.png' };
    expect((await post(form({ name: 'X' }, big))).status).toBe(413);
    expect(
      (
        await shop.api<{ message: string }>('POST', '/api/collections', {
          token: admin,
          body: { name: 'X', image: 'javascript:alert(1)' },
        })
      ).status,
    ).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('updates the image with a form (the admin screen) and the name or description with JSON', async () => {
    const id = await newCollection('Monsoon');
    const r = await shop.api<Collection & { message: string }>('PUT', `/api/collections/${id}`, {
      token: admin,
      form: form({}, { bytes: PNG, type: 'image/png', name: 'm.png' }),
    });
    expect(r).toMatchObject({ status: 200, body: { message: 'Collection updated', name: 'Monsoon' } });
    expect(r.body.image).toMatch(/^\/uploads\/[0-9a-f-]{36}_w1\/1\.jpg$/);
    const j = await shop.api<Collection>('PUT', `/api/collections/${id}`, {
      token: admin,
      body: { name: 'Monsoon Layers', description: 'Rain-ready' },
    });
    expect(j.body).toMatchObject({ name: 'Monsoon Layers', description: 'Rain-ready', image: r.body.image });
    expect(await collectionOf(id)).toMatchObject({
      name: 'Monsoon Layers',
      description: 'Rain-ready',
      image: r.body.image,
    });
    expect(
      (await shop.api<{ message: string }>('PUT', `/api/collections/${id}`, { token: admin, body: { name: '' } })).body,
    ).toMatchObject({ message: 'Collection name is required' });
    const notImage = form({}, { bytes: Buffer.from('GIF8 but not really'), type: 'image/gif', name: 'x.gif' });
    expect(
      (await shop.api<{ message: string }>('PUT', `/api/collections/${id}`, { token: admin, form: notImage })).body
        .message,
    ).toMatch(/^Only image files/);
    const big = form({}, { bytes: Buffer.alloc(6 * 1024 * 1024, 0x89), type: 'image/png', name: 'big.png' });
    expect((await shop.api('PUT', `/api/collections/${id}`, { token: admin, form: big })).status).toBe(413);
    expect(
      await shop.api('PUT', `/api/collections/${randomUUID()}`, { token: admin, body: { name: 'X' } }),
    ).toMatchObject({
      status: 404,
      body: { message: 'Collection not found' },
    });
    expect((await shop.api('PUT', '/api/collections/bad%20id', { token: admin, body: { name: 'X' } })).status).toBe(
      400,
    );
  });

  it('adds products by productId in the order given, once each; removes them; unknown ones are 404', async () => {
    const id = await newCollection('Wedding');
    const p1 = await newProduct('Silk Sherwani');
    const p2 = await newProduct('Zari Lehenga');
    const a1 = await add(id, p1);
    expect(a1).toMatchObject({ status: 200, body: { Products: [{ id: p1, name: 'Silk Sherwani' }] } });
    await add(id, p2);
    const before = await eventCount();
    const again = await add(id, p1);
    expect(again.status).toBe(200);
    // an admin's answer marks each product's listing
    expect(again.body.Products).toEqual([
      { id: p1, name: 'Silk Sherwani', isDelisted: false },
      { id: p2, name: 'Zari Lehenga', isDelisted: false },
    ]);
    expect(await eventCount()).toBe(before);
    expect((await collectionOf(id))?.Products.map((p) => p.id)).toEqual([p1, p2]);

    expect(await add(id, randomUUID())).toMatchObject({ status: 404, body: { message: 'Product not found' } });
    expect(await add(randomUUID(), p1)).toMatchObject({ status: 404, body: { message: 'Collection not found' } });
    expect(await add(id, undefined)).toMatchObject({ status: 400, body: { message: 'productId is required' } });
    expect((await add(id, '../x')).status).toBe(400);

    const r = await remove(id, p1);
    expect(r).toMatchObject({
      status: 200,
      body: { message: 'Product removed from collection', Products: [{ id: p2 }] },
    });
    expect((await collectionOf(id))?.Products).toEqual([{ id: p2, name: 'Zari Lehenga' }]);
    // ?productId= works too, for clients that cannot send a DELETE body
    const q = await shop.api<Collection>('DELETE', `/api/collections/${id}/products?productId=${p2}`, { token: admin });
    expect(q.body.Products).toEqual([]);
    expect((await remove(id, p2)).status).toBe(200);
  });

  it('lists only listed products to the public and all of them, marked, to admins; GET /api/products?collection= the same', async () => {
    const id = await newCollection('Kids Party');
    const listed = await newProduct('Party Frock');
    const delisted = await newProduct('Old Frock');
    const outside = await newProduct('Not In It');
    await add(id, listed);
    await add(id, delisted);
    await shop.api('PUT', `/api/products/${delisted}/delist`, { token: admin, body: { isDelisted: true } });

    expect((await collectionOf(id))?.Products).toEqual([{ id: listed, name: 'Party Frock' }]);
    expect((await collectionOf(id, shopper))?.Products).toEqual([{ id: listed, name: 'Party Frock' }]);
    expect((await collectionOf(id, admin))?.Products).toEqual([
      { id: listed, name: 'Party Frock', isDelisted: false },
      { id: delisted, name: 'Old Frock', isDelisted: true },
    ]);

    const filtered = await shop.api<Product[]>('GET', `/api/products?collection=${id}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.map((p) => p.id)).toEqual([listed]);
    expect(filtered.body[0]).toMatchObject({ name: 'Party Frock', price: 999, quantity: 5, isDelisted: false });
    const asAdmin = await shop.api<Product[]>('GET', `/api/products?collection=${id}&includeDelisted=true`, {
      token: admin,
    });
    expect(asAdmin.body.map((p) => p.id)).toEqual([listed, delisted]);
    const asShopper = await shop.api<Product[]>('GET', `/api/products?collection=${id}&includeDelisted=true`, {
      token: shopper,
    });
    expect(asShopper.body.map((p) => p.id)).toEqual([listed]);

    // The filtered list never lands in the cached unfiltered one, in either order of asking.
    const all = await shop.api<Product[]>('GET', '/api/products');
    expect(all.body.map((p) => p.id)).toEqual(expect.arrayContaining([listed, outside]));
    expect((await shop.api<Product[]>('GET', `/api/products?collection=${id}`)).body.map((p) => p.id)).toEqual([
      listed,
    ]);
    expect((await shop.api<Product[]>('GET', '/api/products')).body).toEqual(all.body);

    expect(await shop.api('GET', `/api/products?collection=${randomUUID()}`)).toMatchObject({
      status: 404,
      body: { message: 'Collection not found' },
    });
    expect((await shop.api('GET', '/api/products?collection=a%20b')).status).toBe(400);
  });

  it('a deleted product leaves every collection', async () => {
    const a = await newCollection('Summer');
    const b = await newCollection('Cotton');
    const kept = await newProduct('Linen Shirt');
    const gone = await newProduct('Cotton Kurta');
    for (const c of [a, b]) {
      await add(c, gone);
      await add(c, kept);
    }
    expect((await shop.api('DELETE', `/api/products/${gone}`, { token: admin })).status).toBe(200);
    for (const c of [a, b]) {
      expect((await collectionOf(c, admin))?.Products.map((p) => p.id)).toEqual([kept]);
      expect((await shop.api<Product[]>('GET', `/api/products?collection=${c}`)).body.map((p) => p.id)).toEqual([kept]);
    }
    const rows = await shop.db.pool.query('SELECT 1 FROM catalog.collection_products WHERE product_id = $1', [gone]);
    expect(rows.rowCount).toBe(0);
    expect(await add(a, gone)).toMatchObject({ status: 404, body: { message: 'Product not found' } });
  });

  it('deletes a collection: gone from the list and from ?collection=; deleting again is 404', async () => {
    const id = await newCollection('Short-lived');
    const r = await shop.api('DELETE', `/api/collections/${id}`, { token: admin });
    expect(r).toMatchObject({ status: 200, body: { message: 'Collection deleted', id } });
    expect(await collectionOf(id)).toBeUndefined();
    expect((await shop.api('GET', `/api/products?collection=${id}`)).status).toBe(404);
    expect(await shop.api('DELETE', `/api/collections/${id}`, { token: admin })).toMatchObject({
      status: 404,
      body: { message: 'Collection not found' },
    });
    expect((await add(id, await newProduct('Late Tee'))).status).toBe(404);
  });
});

describe('collections projection', () => {
  // In Kafka mode events of different streams come in any order: a product's deletion may be seen before
  // a collection's add of it. The projection must end the same either way.
  it('keeps a deleted product out whichever of ProductDeleted and ProductAddedToCollection it sees first', async () => {
    const projection = collectionsProjection();
    let position = 1_000_000n;
    const event = (streamId: string, streamVersion: number, type: string, data: object): RecordedEvent => ({
      globalPosition: (position += 1n),
      transactionId: 1n,
      streamId,
      streamVersion,
      eventId: randomUUID(),
      type,
      schemaVersion: 1,
      data,
      metadata: { occurredAt: '2026-11-22T10:00:00.000Z' },
      source: 'catalog',
    });
    const at = '2026-11-22T10:00:00.000Z';
    const memberships = async (collectionId: string) =>
      (
        await shop.db.pool.query<{ product_id: string }>(
          'SELECT product_id FROM catalog.collection_products WHERE collection_id = $1 ORDER BY position',
          [collectionId],
        )
      ).rows.map((r) => r.product_id);
    for (const deletedFirst of [true, false]) {
      const collectionId = randomUUID();
      const productId = randomUUID();
      const created = event(`collection-${collectionId}`, 1, 'CollectionCreated', {
        collectionId,
        name: 'Order test',
        description: '',
        image: '',
        createdAt: at,
      });
      const added = event(`collection-${collectionId}`, 2, 'ProductAddedToCollection', { collectionId, productId, at });
      const deleted = event(`product-${productId}`, 3, 'ProductDeleted', { productId, at });
      const order = deletedFirst ? [created, deleted, added] : [created, added, deleted];
      for (const e of order) await withTransaction(shop.db.pool, (tx) => projection.handle(e, tx));
      expect(await memberships(collectionId), deletedFirst ? 'deleted first' : 'added first').toEqual([]);
    }
  });
});
