import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDistributed } from '../../scripts/distributed-processes.ts';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { openEventStream } from '../../services/order/src/testing/sse-client.ts';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { PNG_1X1 as PNG } from '@shop/test-support/fixtures';
import { freePortRun } from '@shop/test-support/port-run';
import { afterSaleJourney } from './support/after-sale-journey.ts';

const ADMIN = { email: 'ops@shop.local', password: 'ops-password-1' };

let db: TestDatabase;
let shop: Awaited<ReturnType<typeof startDistributed>>;
let gatewayPort: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-distributed-'));

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  const ports = await freePortRun();
  gatewayPort = ports.gatewayPort;
  shop = await startDistributed({
    env: {
      DATABASE_URL: db.url,
      REDIS_URL: inject('redisUrl'),
      KAFKA_BROKERS: inject('kafkaBrokers'),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'distributed-e2e-secret-value',
      LOG_LEVEL: 'warn',
    },
    ...ports,
  });
});

afterAll(async () => {
  await shop?.stop();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('distributed mode: gateway and each service as separate processes over Kafka', () => {
  it('runs each service in its own process behind the gateway', async () => {
    const pids = new Set(shop.procs.map((p) => p.child.pid));
    expect(shop.procs.map((p) => p.name).sort()).toEqual(['accounts', 'catalog', 'checkout', 'gateway', 'order']);
    expect(pids.size).toBe(5);
    const health = await httpClient(`http://127.0.0.1:${gatewayPort}`)<{
      status: string;
      dependencies: Array<{ name: string; ok: boolean; dependencies: Array<{ name: string; adapter: string }> }>;
    }>('GET', '/api/health');
    expect(health.body.status).toBe('ok');
    const catalog = health.body.dependencies.find((d) => d.name === 'catalog')!;
    expect(catalog.dependencies.map((d) => `${d.name}:${d.adapter}`)).toEqual([
      'postgres:external',
      'cache:redis',
      'bus:kafka',
    ]);
  });

  it('a product created through the gateway reaches GET /api/products through Kafka', async () => {
    const api = httpClient(`http://127.0.0.1:${gatewayPort}`);
    const login = await api<{ token: string }>('POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const shopper = await api<{ token: string }>('POST', '/api/auth/register', {
      body: { name: 'Kiran', email: 'kiran@example.in', phone: '+919822222222', password: 'kiran123' },
    });
    expect(shopper.status).toBe(201);
    expect((await api('GET', '/api/auth/admin/users', { token: shopper.body.token })).status).toBe(403);

    const form = new FormData();
    form.append('name', 'Kafka Kurta');
    form.append('price', '1999');
    form.append('quantity', '5');
    form.append('category', 'Men');
    form.append('sizeQuantities', JSON.stringify({ M: 3, L: 2 }));
    form.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'k.png');
    const created = await api<{ id: string; image: string }>('POST', '/api/products', {
      token: login.body.token,
      form,
    });
    expect(created.status).toBe(201);

    const listed = await waitUntil(async () => {
      const r = await api<Array<{ id: string; name: string; sizeQuantities: Record<string, number> }>>(
        'GET',
        '/api/products',
      );
      return r.body.find((p) => p.id === created.body.id);
    }, 'the product in the list');
    expect(listed).toMatchObject({ name: 'Kafka Kurta', sizeQuantities: { M: 3, L: 2 } });
    expect((await fetch(`http://127.0.0.1:${gatewayPort}${created.body.image}`)).status).toBe(200);

    // Repeat reads are answered by the gateway from Redis; a write through it is seen by the next read.
    const again = await waitUntil(async () => {
      const r = await fetch(`http://127.0.0.1:${gatewayPort}/api/products`);
      const body = (await r.json()) as Array<{ id: string }>;
      return r.headers.get('x-cache') === 'gateway' ? body : undefined;
    }, 'a list served by the gateway cache');
    expect(again.some((p) => p.id === created.body.id)).toBe(true);
    const delist = async (isDelisted: boolean) => {
      const r = await api('PUT', `/api/products/${created.body.id}/delist`, {
        token: login.body.token,
        body: { isDelisted },
      });
      expect(r.status).toBe(200);
    };
    await delist(true);
    const after = await api<Array<{ id: string }>>('GET', '/api/products');
    expect(after.body.some((p) => p.id === created.body.id)).toBe(false);
    await delist(false);
    expect((await api<Array<{ id: string }>>('GET', '/api/products')).body.some((p) => p.id === created.body.id)).toBe(
      true,
    );

    // The projection got it from Kafka: the catalog outbox rows were published by the relay.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished, count(*)::int AS total
           FROM catalog.outbox WHERE stream_id = $1`,
        [`product-${created.body.id}`],
      );
      expect(rows[0]).toEqual({ unpublished: 0, total: 3 }); // created, delisted, relisted: all relayed
    } finally {
      await client.end();
    }
  });

  it("pay -> the order shows in the buyer's and the admin's lists -> a status change reaches the admin's push stream", async () => {
    const base = `http://127.0.0.1:${gatewayPort}`;
    const api = httpClient(base);
    const admin = (await api<{ token: string }>('POST', '/api/auth/login', { body: ADMIN })).body.token;
    const buyer = await api<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { name: 'Leela', email: 'leela@example.in', phone: '+919833333333', password: 'leela123' },
    });
    expect(buyer.status).toBe(201);
    const products = await api<
      Array<{ id: string; name: string; price: number; quantity: number; sizeQuantities: Record<string, number> }>
    >('GET', '/api/products');
    const product =
      products.body.find((p) => p.quantity > 0 && Object.values(p.sizeQuantities).every((n) => n === 0)) ??
      products.body.find((p) => p.quantity > 0)!;

    const stream = await openEventStream(`${base}/api/orders/stream`, { token: admin });
    expect(stream.status).toBe(200);
    await stream.waitFor((e) => e.event === 'ready', 'ready');

    const created = await api<{ id: string; amount: number; key_id: string }>('POST', '/api/payment/create-order', {
      token: buyer.body.token,
      body: {
        amount: 1,
        currency: 'INR',
        receipt: `rcpt_${Date.now()}`,
        orderData: {
          address: '7 Park Street, Kolkata',
          pincode: '700016',
          customerName: 'Leela',
          customerPhone: '+919833333333',
          customerEmail: 'leela@example.in',
          items: [{ productId: product.id, quantity: 1, size: null, color: null }],
          couponCode: null,
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.key_id).toBe('rzp_test_sandbox');
    const paid = await sandboxPay(`${base}/razorpay-sandbox`, created.body.id);
    const verified = await api<{ success: boolean; orderNumber: string }>('POST', '/api/payment/verify', {
      token: buyer.body.token,
      body: paid,
    });
    expect(verified.status).toBe(200);
    const { orderNumber } = verified.body;

    // verify answers once the payment is recorded, with the order's number; the order follows by push
    await stream.waitFor(
      (e) => e.event === 'order' && e.json<{ orderNumber: string }>().orderNumber === orderNumber,
      'the placed order on the admin stream',
    );
    const mine = await api<Array<{ orderNumber: string; deliveryStatus: string }>>('GET', '/api/orders', {
      token: buyer.body.token,
    });
    expect(mine.body.map((o) => o.orderNumber)).toContain(orderNumber);
    const all = await api<Array<{ orderNumber: string }>>('GET', '/api/orders/admin/all', { token: admin });
    expect(all.body.map((o) => o.orderNumber)).toContain(orderNumber);

    // The order service ships it at the gateway's Shiprocket sandbox (before the admin moves it on by hand).
    type Shipped = {
      orderNumber: string;
      deliveryStatus: string;
      shiprocketAWB: string | null;
      shiprocketStatus: string;
    };
    const ownOrder = async () =>
      (await api<Shipped[]>('GET', '/api/orders', { token: buyer.body.token })).body.find(
        (o) => o.orderNumber === orderNumber,
      );
    const awb = await waitUntil(async () => (await ownOrder())?.shiprocketAWB, 'the shipment');
    const changed = await api('PATCH', `/api/orders/admin/${orderNumber}/status`, {
      token: admin,
      body: { deliveryStatus: 'Out for Delivery' },
    });
    expect(changed.status).toBe(200);
    const pushed = await stream.waitFor(
      (e) =>
        e.event === 'order' &&
        e.json<{ orderNumber: string; deliveryStatus: string }>().deliveryStatus === 'Out for Delivery',
      'the status change on the admin stream',
    );
    expect(pushed.json<{ orderNumber: string }>().orderNumber).toBe(orderNumber);
    stream.close();

    // The courier's tracking webhooks come back through the gateway to the order process: DELIVERED moves it on.
    for (let step = 0; step < 4; step++)
      expect((await api('POST', `/shiprocket-sandbox/sandbox/shipments/${awb}/advance`)).status).toBe(200);
    await waitUntil(async () => (await ownOrder())?.deliveryStatus === 'Delivered', 'Delivered from tracking');
    expect(await ownOrder()).toMatchObject({ shiprocketStatus: 'DELIVERED' });
  });
});

describe('distributed mode: after the sale (issue 26)', () => {
  it('buy -> the order e-mail -> an AWB and the shipped e-mail -> tracking moves it to Out for Delivery, then Delivered, pushed live, with e-mails', async () => {
    // The same journey as on the embedded default (after-sale-journey.e2e.spec.ts), through the gateway: the
    // mail reactor in the order process, the mail sandbox listed by the accounts process, the tracking
    // webhooks from the gateway's Shiprocket sandbox back to the order process.
    await afterSaleJourney(`http://127.0.0.1:${gatewayPort}`, ADMIN);
  });
});

/** Waits until every outbox row of these streams is relayed to Kafka; answers how many there are. */
async function relayedToKafka(schema: 'catalog' | 'accounts', streamIds: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return await waitUntil(
      async () => {
        const { rows } = await client.query<{ unpublished: number; total: number }>(
          `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished, count(*)::int AS total
           FROM ${schema}.outbox WHERE stream_id = ANY($1)`,
          [streamIds],
        );
        return rows[0]!.unpublished === 0 && rows[0]!.total > 0 ? rows[0]!.total : undefined;
      },
      `the ${schema} outbox rows of ${streamIds.join(', ')} relayed to Kafka`,
    );
  } finally {
    await client.end();
  }
}

// Issue 9's curation: written through the gateway to the catalog and accounts processes, projected from Kafka
// by their consumer groups, read back through the gateway. Shares the processes started above.
describe('distributed mode: storefront curation through the gateway', () => {
  let base: string;
  let api: ReturnType<typeof httpClient>;
  beforeAll(() => {
    base = `http://127.0.0.1:${gatewayPort}`;
    api = httpClient(base);
  });
  const adminToken = async () => (await api<{ token: string }>('POST', '/api/auth/login', { body: ADMIN })).body.token;
  const register = async (name: string, email: string, phone: string) => {
    const r = await api<{ token: string }>('POST', '/api/auth/register', {
      body: { name, email, phone, password: 'curation123' },
    });
    expect(r.status).toBe(201);
    return r.body.token;
  };
  const createProduct = async (admin: string, name: string) => {
    const form = new FormData();
    form.append('name', name);
    form.append('price', '1499');
    form.append('quantity', '4');
    form.append('category', 'Women');
    const r = await api<{ id: string; name: string }>('POST', '/api/products', { token: admin, form });
    expect(r.status).toBe(201);
    return r.body;
  };

  it('a collection of two products and homepage sections an admin creates are public, each section in its order', async () => {
    const admin = await adminToken();
    const shopper = await register('Farah', 'farah@example.in', '+919844444444');
    const first = await createProduct(admin, 'Chikankari Kurta');
    const second = await createProduct(admin, 'Bandhani Dupatta');

    const refused = await api('POST', '/api/collections', { token: shopper, body: { name: 'Not mine' } });
    expect(refused.status).toBe(403);
    const form = new FormData();
    form.append('name', 'Lucknow Weaves');
    form.append('description', 'Hand embroidery from Lucknow');
    form.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'weaves.png');
    const created = await api<{ id: string; image: string }>('POST', '/api/collections', { token: admin, form });
    expect(created.status).toBe(201);
    const collectionId = created.body.id;
    for (const product of [first, second]) {
      const added = await api('POST', `/api/collections/${collectionId}/products`, {
        token: admin,
        body: { productId: product.id },
      });
      expect(added.status).toBe(200);
    }

    const collections = await api<Array<{ id: string }>>('GET', '/api/collections');
    expect(collections.status).toBe(200);
    expect(collections.body.find((c) => c.id === collectionId)).toMatchObject({
      id: collectionId,
      name: 'Lucknow Weaves',
      description: 'Hand embroidery from Lucknow',
      image: expect.stringMatching(/^\/uploads\/[\w-]+_w1\/1\.jpg$/),
      Products: [
        { id: first.id, name: 'Chikankari Kurta' },
        { id: second.id, name: 'Bandhani Dupatta' },
      ],
    });
    expect((await fetch(base + created.body.image)).status).toBe(200);
    const inCollection = await api<Array<{ id: string; name: string }>>(
      'GET',
      `/api/products?collection=${collectionId}`,
    );
    expect(inCollection.status).toBe(200);
    expect(inCollection.body.map((p) => [p.id, p.name])).toEqual([
      [first.id, 'Chikankari Kurta'],
      [second.id, 'Bandhani Dupatta'],
    ]);

    // Three sections: products in their own order, the collection, and an inactive draft nobody else sees.
    const section = async (body: Record<string, unknown>) => {
      const r = await api<{ id: string }>('POST', '/api/home/sections', { token: admin, body });
      expect(r.status).toBe(201);
      return r.body.id;
    };
    const picks = await section({ name: 'Festive Picks', contentIds: [second.id, first.id], displayOrder: 2 });
    const byCollection = await section({
      name: 'Shop by Collection',
      contentType: 'collections',
      contentIds: [collectionId],
      textStyle: 'bold',
      backgroundColor: '#FFF4E0',
      displayOrder: 1,
    });
    const draft = await section({ name: 'Draft', contentIds: [first.id], displayOrder: 0, isActive: false });

    const sections = await api<Array<{ id: string; name: string }>>('GET', '/api/home/sections');
    expect(sections.status).toBe(200);
    const ours = sections.body.filter((s) => [picks, byCollection, draft].includes(s.id));
    expect(ours.map((s) => s.name)).toEqual(['Shop by Collection', 'Festive Picks']);
    expect(ours[0]).toMatchObject({
      contentType: 'collections',
      contentIds: [collectionId],
      textStyle: 'bold',
      textColor: '#000000',
      backgroundColor: '#FFF4E0',
      textSize: 'normal',
      displayOrder: 1,
      isActive: true,
    });
    const all = await api<Array<{ id: string }>>('GET', '/api/home/sections?all=true', { token: admin });
    expect(all.body.some((s) => s.id === draft)).toBe(true);

    const picksContent = await api<{ content: Array<{ id: string; name: string }> }>(
      'GET',
      `/api/home/sections/${picks}/content`,
    );
    expect(picksContent.status).toBe(200);
    expect(picksContent.body.content.map((p) => p.name)).toEqual(['Bandhani Dupatta', 'Chikankari Kurta']);
    const collectionContent = await api<{ content: Array<{ id: string; Products: Array<{ id: string }> }> }>(
      'GET',
      `/api/home/sections/${byCollection}/content`,
    );
    expect(collectionContent.body.content.map((c) => [c.id, c.Products.map((p) => p.id)])).toEqual([
      [collectionId, [first.id, second.id]],
    ]);
    expect((await api('GET', `/api/home/sections/${draft}/content`)).status).toBe(404);

    // Every write went out through the catalog's outbox to Kafka.
    const streams = [`collection-${collectionId}`, ...[picks, byCollection, draft].map((id) => `home-section-${id}`)];
    expect(await relayedToKafka('catalog', streams)).toBe(3 + 3); // created + two products added; three sections
  });

  it('a carousel slide saved with an uploaded image0 is on GET /api/home, its image served under /uploads', async () => {
    const admin = await adminToken();
    const slide = { name: 'Monsoon Edit', price: 2499.5, lining: 'Cotton', size: 'M', height: '5\'8"' };
    const form = new FormData();
    form.append('carousel', JSON.stringify([slide]));
    form.append('sections', JSON.stringify({ layout: 'grid' }));
    form.append('image0', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'monsoon.png');
    const saved = await api<{ message: string }>('PUT', '/api/home', { token: admin, form });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Homepage configuration has been saved successfully');

    const home = await api<{ carousel: Array<{ image: string }>; sections: unknown }>('GET', '/api/home');
    expect(home.status).toBe(200);
    expect(home.body).toEqual({
      carousel: [{ ...slide, image: expect.stringMatching(/^\/uploads\/[\w-]+_w1\/1\.jpg$/) }],
      sections: { layout: 'grid' },
    });
    const image = await fetch(base + home.body.carousel[0]!.image);
    expect(image.status).toBe(200);
    // re-encoded into its renditions (photo naming rule): the JPEG named, and the WebP beside it
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const webp = await fetch(base + home.body.carousel[0]!.image.replace(/\.jpg$/, '.webp'));
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await relayedToKafka('catalog', ['homepage'])).toBeGreaterThanOrEqual(1);
  });

  it("a shopper's testimonial is public once the admin approves it, with the author's name; a pending one never is", async () => {
    const admin = await adminToken();
    const shopper = await register('Meera Iyer', 'meera@example.in', '+919855555555');
    expect((await api('POST', '/api/testimonials', { body: { text: 'Anonymous' } })).status).toBe(401);
    const submit = async (rating: number, text: string) => {
      const r = await api<{ id: string; status: string }>('POST', '/api/testimonials', {
        token: shopper,
        body: { rating, text },
      });
      expect(r.status).toBe(201);
      expect(r.body.status).toBe('pending');
      return r.body.id;
    };
    const approved = await submit(4, '  Lovely fabric, quick delivery to Chennai.  ');
    const pending = await submit(2, 'Still waiting for moderation');

    const beforeApproval = await api<Array<{ id: string }>>('GET', '/api/testimonials');
    expect(beforeApproval.status).toBe(200);
    expect(beforeApproval.body.filter((t) => [approved, pending].includes(t.id))).toEqual([]);
    const queue = await api<Array<{ id: string; status: string; User: { name: string; email: string } }>>(
      'GET',
      '/api/testimonials/admin/all',
      { token: admin },
    );
    const queued = queue.body.filter((t) => [approved, pending].includes(t.id));
    expect(queued).toHaveLength(2);
    for (const t of queued)
      expect(t).toMatchObject({ status: 'pending', User: { name: 'Meera Iyer', email: 'meera@example.in' } });

    const moderated = await api('PUT', `/api/testimonials/admin/${approved}`, {
      token: admin,
      body: { status: 'approved' },
    });
    expect(moderated.status).toBe(200);
    const reviews = await api<Array<{ id: string }>>('GET', '/api/testimonials');
    expect(reviews.body.filter((t) => [approved, pending].includes(t.id))).toEqual([
      {
        id: approved,
        rating: 4,
        text: 'Lovely fabric, quick delivery to Chennai.',
        status: 'approved',
        createdAt: expect.any(String),
        User: { name: 'Meera Iyer' },
      },
    ]);
    expect(
      await relayedToKafka(
        'accounts',
        [approved, pending].map((id) => `testimonial-${id}`),
      ),
    ).toBe(3); // two submitted, one approved
  });
});
