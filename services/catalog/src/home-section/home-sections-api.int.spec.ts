import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';

interface Section {
  id: string;
  name: string;
  contentType: 'products' | 'collections';
  contentIds: string[];
  textStyle: string;
  textColor: string;
  backgroundColor: string;
  textSize: string;
  displayOrder: number;
  isActive: boolean;
}
interface Product {
  id: string;
  name: string;
  price: number;
  isDelisted: boolean;
}
interface Collection {
  id: string;
  name: string;
  Products: Array<{ id: string; name: string; isDelisted?: boolean }>;
}

const FILL = 'Please fill name and select at least one item';

let shop: TestShop;
let admin: string;
let shopper: string;
let products: string[];
beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  await shop.api('POST', '/api/auth/register', {
    body: { name: 'Arjun', email: 'arjun@example.in', phone: '+919800000004', password: 'secret1' },
  });
  shopper = await shop.login('arjun@example.in', 'secret1');
  products = [];
  for (const name of ['Indigo Kurta', 'Chikan Top', 'Bandhani Dupatta', 'Khadi Jacket']) {
    const r = await shop.api<Product>('POST', '/api/products', {
      token: admin,
      body: { name, price: 1200, quantity: 4 },
    });
    products.push(r.body.id);
  }
});
afterAll(() => shop.stop());

const create = (body: unknown, token = admin) =>
  shop.api<Section & { message: string }>('POST', '/api/home/sections', { token, body });
const update = (id: string, body: unknown, token = admin) =>
  shop.api<Section & { message: string }>('PUT', `/api/home/sections/${id}`, { token, body });
const publicList = async (token?: string) => (await shop.api<Section[]>('GET', '/api/home/sections', { token })).body;
const content = <T>(id: string, token?: string) =>
  shop.api<{ content: T[] }>('GET', `/api/home/sections/${id}/content`, { token });

describe('homepage sections API', () => {
  it('guards every admin route: 401 without a token, 403 for a shopper', async () => {
    const s = await create({ name: 'Guarded', contentIds: [products[0]] });
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/home/sections', { name: 'X', contentIds: [products[0]] }],
      ['PUT', `/api/home/sections/${s.body.id}`, { name: 'X' }],
      ['DELETE', `/api/home/sections/${s.body.id}`, undefined],
    ];
    for (const [method, path, body] of routes) {
      expect((await shop.api(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401);
      expect((await shop.api(method, path, { body, token: shopper })).status, `${method} ${path} shopper`).toBe(403);
    }
    expect((await publicList()).find((x) => x.id === s.body.id)?.name).toBe('Guarded');
    await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin });
  });

  it("creates a section with the seed's defaults", async () => {
    const r = await create({ name: 'New Season', contentIds: [products[0], products[1]] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      message: 'Section created',
      id: expect.any(String),
      name: 'New Season',
      contentType: 'products',
      contentIds: [products[0], products[1]],
      textStyle: 'default',
      textColor: '#000000',
      backgroundColor: '#FFFFFF',
      textSize: 'normal',
      displayOrder: 0,
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { message: _m, ...section } = r.body;
    expect((await publicList()).find((s) => s.id === r.body.id)).toEqual(section);
    await shop.api('DELETE', `/api/home/sections/${r.body.id}`, { token: admin });
  });

  it('takes every text style, colours in hex, the three sizes (and "default" as normal)', async () => {
    const styles = ['default', 'outline', 'bold', 'italic', 'uppercase', 'lowercase', 'thin-outline'];
    const fonts = ['Avenir', 'PHOSPHATE', 'Courier', 'Chalkboard', 'Open Sans', 'Vacations in Paradise'];
    const more = ['Snell Roundhand', "DAN'S DISNEY", 'Papyrus', 'Comic Sans', 'Trattatello'];
    const r = await create({ name: 'Styled', contentIds: [products[0]], textStyle: 'bold', textSize: 'default' });
    expect(r.body).toMatchObject({ textStyle: 'bold', textSize: 'normal' });
    for (const textStyle of [...styles, ...fonts, ...more]) {
      const u = await update(r.body.id, { textStyle });
      expect(u, textStyle).toMatchObject({ status: 200, body: { message: 'Section updated', textStyle } });
    }
    for (const textSize of ['small', 'big'])
      expect((await update(r.body.id, { textSize })).body.textSize).toBe(textSize);
    const c = await update(r.body.id, { textColor: '#1a2B3c', backgroundColor: '#fff' });
    expect(c.body).toMatchObject({ textColor: '#1a2B3c', backgroundColor: '#fff', textStyle: 'Trattatello' });
    await shop.api('DELETE', `/api/home/sections/${r.body.id}`, { token: admin });
  });

  it('refuses a section without a name or items, a negative display order and unknown styles, writing nothing', async () => {
    const before = (await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events')).rows[0].n;
    const bad = async (body: unknown) => (await create(body)).body.message;
    expect(await bad({ contentIds: [products[0]] })).toBe(FILL);
    expect(await bad({ name: '   ', contentIds: [products[0]] })).toBe(FILL);
    expect(await bad({ name: 'No items' })).toBe(FILL);
    expect(await bad({ name: 'No items', contentIds: [] })).toBe(FILL);
    expect(await bad({})).toBe(FILL);
    const order = 'Display order must be a whole number of 0 or more';
    expect(await bad({ name: 'X', contentIds: [products[0]], displayOrder: -1 })).toBe(order);
    expect(await bad({ name: 'X', contentIds: [products[0]], displayOrder: 1.5 })).toBe(order);
    expect(await bad({ name: 'X', contentIds: [products[0]], displayOrder: 'first' })).toBe(order);
    expect(await bad({ name: 'X', contentIds: [products[0]], textStyle: 'Wingdings' })).toMatch(
      /^textStyle must be one of: default, outline/,
    );
    expect(await bad({ name: 'X', contentIds: [products[0]], textColor: 'red' })).toBe(
      'textColor must be a hex colour such as #000000',
    );
    expect(await bad({ name: 'X', contentIds: [products[0]], backgroundColor: '#12345' })).toBe(
      'backgroundColor must be a hex colour such as #000000',
    );
    expect(await bad({ name: 'X', contentIds: [products[0]], textSize: 'huge' })).toBe(
      'textSize must be small, normal or big',
    );
    expect(await bad({ name: 'X', contentIds: [products[0]], contentType: 'banners' })).toBe(
      "contentType must be 'products' or 'collections'",
    );
    expect(await bad({ name: 'X', contentIds: [products[0]], isActive: 'yes' })).toBe('isActive must be true or false');
    expect((await shop.db.pool.query('SELECT count(*)::int AS n FROM catalog.events')).rows[0].n).toBe(before);

    const s = await create({ name: 'Valid', contentIds: [products[0]] });
    expect((await update(s.body.id, { name: '' })).body.message).toBe(FILL);
    expect((await update(s.body.id, { contentIds: [] })).body.message).toBe(FILL);
    // a new content type needs new items (the admin form clears them when the type changes)
    expect((await update(s.body.id, { contentType: 'collections' })).body.message).toBe(FILL);
    expect((await update(s.body.id, { displayOrder: -3 })).body.message).toBe(order);
    expect(await update(randomUUID(), { name: 'X' })).toMatchObject({
      status: 404,
      body: { message: 'Section not found' },
    });
    expect((await publicList()).find((x) => x.id === s.body.id)).toMatchObject({
      name: 'Valid',
      contentType: 'products',
    });
    await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin });
  });

  it('lists active sections in display order to everyone; admins ask for inactive ones too with ?all=true', async () => {
    const third = await create({ name: 'Third', contentIds: [products[0]], displayOrder: 7 });
    const first = await create({ name: 'First', contentIds: [products[0]], displayOrder: 1 });
    const hidden = await create({ name: 'Hidden', contentIds: [products[0]], displayOrder: 0, isActive: false });
    const second = await create({ name: 'Second', contentIds: [products[0]], displayOrder: '3' });
    const ids = [first, second, third].map((r) => r.body.id);

    expect((await publicList()).map((s) => s.id)).toEqual(ids);
    expect((await publicList(shopper)).map((s) => s.id)).toEqual(ids);
    const visitorAll = await shop.api<Section[]>('GET', '/api/home/sections?all=true');
    expect(visitorAll.body.map((s) => s.id)).toEqual(ids);
    const shopperAll = await shop.api<Section[]>('GET', '/api/home/sections?all=true', { token: shopper });
    expect(shopperAll.body.map((s) => s.id)).toEqual(ids);
    const adminAll = await shop.api<Section[]>('GET', '/api/home/sections?all=true', { token: admin });
    expect(adminAll.body.map((s) => s.id)).toEqual([hidden.body.id, ...ids]);
    expect(adminAll.body[0]).toMatchObject({ name: 'Hidden', isActive: false });
    expect((await shop.api('GET', '/api/home/sections?all=maybe')).status).toBe(400);

    // the order moves with the section, and activating shows it
    await update(third.body.id, { displayOrder: 0 });
    await update(hidden.body.id, { isActive: true, displayOrder: 2 });
    expect((await publicList()).map((s) => s.name)).toEqual(['Third', 'First', 'Hidden', 'Second']);
    for (const r of [first, second, third, hidden])
      expect((await shop.api('DELETE', `/api/home/sections/${r.body.id}`, { token: admin })).status).toBe(200);
    expect(await publicList()).toEqual([]);
  });

  it("serves a products section's content in its own order, as GET /api/products answers them, without delisted or deleted products", async () => {
    const [a, b, c, d] = products as [string, string, string, string];
    const s = await create({ name: 'Handloom', contentIds: [c, a, d, b] });
    const first = await content<Product>(s.body.id);
    expect(first.status).toBe(200);
    expect(first.body.content.map((p) => p.id)).toEqual([c, a, d, b]);
    const listed = (await shop.api<Product[]>('GET', '/api/products')).body;
    expect(first.body.content[0]).toEqual(listed.find((p) => p.id === c));

    await shop.api('PUT', `/api/products/${d}/delist`, { token: admin, body: { isDelisted: true } });
    const gone = (
      await shop.api<Product>('POST', '/api/products', { token: admin, body: { name: 'Gone', price: 1, quantity: 1 } })
    ).body.id;
    await update(s.body.id, { contentIds: [gone, c, a, d, b] });
    expect((await content<Product>(s.body.id)).body.content.map((p) => p.id)).toEqual([gone, c, a, b]);
    await shop.api('DELETE', `/api/products/${gone}`, { token: admin });
    expect((await content<Product>(s.body.id)).body.content.map((p) => p.id)).toEqual([c, a, b]);
    // delisted products stay out for admins too: the content is what the home page shows
    expect((await content<Product>(s.body.id, admin)).body.content.map((p) => p.id)).toEqual([c, a, b]);
    await shop.api('PUT', `/api/products/${d}/delist`, { token: admin, body: { isDelisted: false } });
    expect((await content<Product>(s.body.id)).body.content.map((p) => p.id)).toEqual([c, a, d, b]);
    await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin });
  });

  it("serves a collections section's content as GET /api/collections answers them, in the section's order", async () => {
    const col = async (name: string, productIds: string[]) => {
      const r = await shop.api<Collection>('POST', '/api/collections', { token: admin, body: { name } });
      for (const productId of productIds)
        await shop.api('POST', `/api/collections/${r.body.id}/products`, { token: admin, body: { productId } });
      return r.body.id;
    };
    const x = await col('Festive', [products[1]!, products[0]!]);
    const y = await col('Everyday', [products[2]!]);
    const z = await col('Deleted soon', []);
    const s = await create({ name: 'Shop by collection', contentType: 'collections', contentIds: [y, z, x] });
    await shop.api('DELETE', `/api/collections/${z}`, { token: admin });
    const r = await content<Collection>(s.body.id);
    const all = (await shop.api<Collection[]>('GET', '/api/collections')).body;
    expect(r.body.content.map((c) => c.id)).toEqual([y, x]);
    expect(r.body.content).toEqual([all.find((c) => c.id === y), all.find((c) => c.id === x)]);
    expect(r.body.content[1]!.Products.map((p) => p.name)).toEqual(['Chikan Top', 'Indigo Kurta']);

    // switching the type takes new items
    const p = await update(s.body.id, { contentType: 'products', contentIds: [products[3]] });
    expect(p.body).toMatchObject({ contentType: 'products', contentIds: [products[3]] });
    expect((await content<Product>(s.body.id)).body.content.map((c) => c.name)).toEqual(['Khadi Jacket']);
    await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin });
  });

  it('hides an inactive or deleted section and its content from the public; admins still see an inactive one', async () => {
    const s = await create({ name: 'Draft', contentIds: [products[0]], isActive: false });
    expect(await content(s.body.id)).toMatchObject({ status: 404, body: { message: 'Section not found' } });
    expect((await content(s.body.id, shopper)).status).toBe(404);
    expect((await content<Product>(s.body.id, admin)).body.content.map((p) => p.id)).toEqual([products[0]]);
    expect((await publicList()).some((x) => x.id === s.body.id)).toBe(false);

    const del = await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin });
    expect(del).toMatchObject({ status: 200, body: { message: 'Section deleted', id: s.body.id } });
    expect((await content(s.body.id, admin)).status).toBe(404);
    expect(await shop.api('DELETE', `/api/home/sections/${s.body.id}`, { token: admin })).toMatchObject({
      status: 404,
      body: { message: 'Section not found' },
    });
    expect((await content('not%20an%20id')).status).toBe(400);
  });
});
