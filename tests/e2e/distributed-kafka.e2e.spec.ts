import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDistributed } from '../../scripts/distributed-processes.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { httpClient } from '../support/http.ts';
import { waitUntil } from '../support/wait-until.ts';
import { openEventStream } from '../../services/order/src/testing/sse-client.ts';
import { sandboxPay } from '../../services/checkout/src/payment-provider/sandbox/sandbox-pay.ts';
import { freePort } from '../../services/shared/src/runtime/free-port.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const ADMIN = { email: 'ops@shop.local', password: 'ops-password-1' };

let db: TestDatabase;
let shop: Awaited<ReturnType<typeof startDistributed>>;
let gatewayPort: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-distributed-'));

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  gatewayPort = await freePort();
  const firstServicePort = await freePort();
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
    gatewayPort,
    firstServicePort,
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
    expect(
      (
        await api('PUT', `/api/products/${created.body.id}/delist`, {
          token: login.body.token,
          body: { isDelisted: true },
        })
      ).status,
    ).toBe(200);
    const after = await api<Array<{ id: string }>>('GET', '/api/products');
    expect(after.body.some((p) => p.id === created.body.id)).toBe(false);
    expect(
      (
        await api('PUT', `/api/products/${created.body.id}/delist`, {
          token: login.body.token,
          body: { isDelisted: false },
        })
      ).status,
    ).toBe(200);
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

    const mine = await api<Array<{ orderNumber: string; deliveryStatus: string }>>('GET', '/api/orders', {
      token: buyer.body.token,
    });
    expect(mine.body.map((o) => o.orderNumber)).toContain(orderNumber);
    const all = await api<Array<{ orderNumber: string }>>('GET', '/api/orders/admin/all', { token: admin });
    expect(all.body.map((o) => o.orderNumber)).toContain(orderNumber);
    await stream.waitFor(
      (e) => e.event === 'order' && e.json<{ orderNumber: string }>().orderNumber === orderNumber,
      'the placed order on the admin stream',
    );

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
  });
});
