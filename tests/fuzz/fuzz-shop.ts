/**
 * The shop to fuzz: the embedded shop (every service in one process, Postgres log bus) on a fresh database
 * of the given Postgres server, with seeded rows so generated ids exist: products with stock, a collection,
 * a home section, a coupon, a shopper with an address and a testimonial, and a paid order. Returns what the
 * request generator needs: the tokens, the seeded ids as hints, the webhook secret.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startShop } from '../../services/gateway/src/shop.ts';
import { freePort } from '../../services/shared/src/db/free-port.ts';
import { SERVICES, startDistributed } from '../../scripts/distributed-processes.ts';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { startMockKafka } from '@shop/test-support/kafka-broker';
import { ROUTE_TABLE } from '../../services/gateway/src/route-table.ts';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { loadConfig } from '../../services/shared/src/config/config.ts';
import type { RouteSpec } from '../../services/shared/src/http/route-table.ts';
import { createRng } from '@shop/test-support/prng';
import { Stops } from '@shop/test-support/stops';
import { guestOrder } from '@shop/test-support/purchase';
import type { FuzzTarget } from './request-generator.ts';
import { routeKey } from './request-generator.ts';
import { validValue, type Hints } from './zod-values.ts';

const ADMIN = { email: 'fuzz-admin@shop.local', password: 'fuzz-admin-pass-123' };
const SHOPPER = {
  name: 'Fuzz Shopper',
  email: 'fuzz-shopper@example.in',
  phone: '9876543210',
  password: 'fuzz-pass-123',
};
const JWT_SECRET = 'fuzz-secret-fuzz-secret-fuzz-secret';
const WEBHOOK_SECRET = 'fuzz-webhook-secret';

export interface FuzzShop {
  /** Where requests go: the shop (embedded) or the gateway (distributed). */
  url: string;
  /** Distributed: /internal/* is never forwarded by the gateway, so those go to the owning service's port. */
  urlFor(target: string): string;
  mode: 'embedded' | 'distributed';
  target: FuzzTarget;
  /**
   * Events a consumer gave up on (parked_events of every schema, not replayed): input the API accepted that
   * its own projections could not take. Read when called; events still being retried are not in it yet.
   */
  parkedEvents(): Promise<Array<{ schema: string; consumer: string; type: string; error: string }>>;
  stop(): Promise<void>;
}

/**
 * embedded: the shop in this process (shop.ts). distributed: the gateway and the four services as processes
 * (scripts/distributed-processes.ts), with Redis (redisUrl, required) and Kafka (KAFKA_BROKERS, else a mock
 * broker started here).
 */
export async function startFuzzShop(opts: {
  /** Admin URL of a Postgres server; the shop gets a fresh database on it (dropped by stop). */
  postgresUrl: string;
  redisUrl?: string;
  logLevel?: string;
  routes?: readonly RouteSpec[];
  mode?: 'embedded' | 'distributed';
}): Promise<FuzzShop> {
  const mode = opts.mode ?? 'embedded';
  const stops = new Stops((err: unknown) => console.error('fuzz shop stop:', err));
  try {
    const database = await createFreshDatabase(
      opts.postgresUrl,
      `fuzz_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`,
    );
    stops.push(database.drop);
    const databaseUrl = database.url;
    const dataDir = stops.tempDir('shop-fuzz-');
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: opts.redisUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: opts.logLevel ?? 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET,
      RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    };
    let url: string;
    let urlFor = (_target: string) => url;
    if (mode === 'embedded') {
      const shop = await startShop(loadConfig({ ...env, PORT: '0' }), { host: '127.0.0.1', seed: false });
      stops.push(() => shop.close());
      url = shop.url;
    } else {
      if (!opts.redisUrl) throw new Error('the distributed shop needs Redis (REDIS_URL)');
      let brokers = process.env.KAFKA_BROKERS;
      if (!brokers) {
        const kafka = await startMockKafka();
        stops.push(kafka.stop);
        brokers = kafka.brokers;
      }
      // The services take firstServicePort and the three ports after it, which another process may hold:
      // a start that fails on a taken port is tried again on other ports.
      let gatewayPort = 0;
      let firstServicePort = 0;
      for (let attempt = 1; ; attempt++) {
        gatewayPort = await freePort();
        firstServicePort = await freePort();
        try {
          const shop = await startDistributed({
            env: { ...env, KAFKA_BROKERS: brokers },
            gatewayPort,
            firstServicePort,
          });
          stops.push(() => shop.stop());
          break;
        } catch (err) {
          if (attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err;
        }
      }
      url = `http://127.0.0.1:${gatewayPort}`;
      const servicePort = (service: string) => firstServicePort + SERVICES.findIndex((s) => s.name === service);
      const internal: Array<[string, string]> = [
        ['/internal/inventory/', `http://127.0.0.1:${servicePort('catalog')}`],
        ['/internal/orders/', `http://127.0.0.1:${servicePort('order')}`],
        ['/internal/checkout/', `http://127.0.0.1:${servicePort('checkout')}`],
        ['/internal/accounts/', `http://127.0.0.1:${servicePort('accounts')}`],
      ];
      urlFor = (target) => internal.find(([prefix]) => target.startsWith(prefix))?.[1] ?? url;
    }
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    stops.push(() => pool.end());
    const routes = opts.routes ?? ROUTE_TABLE;
    const { identities, hints } = await seed(url, routes);
    return {
      url,
      urlFor,
      mode,
      target: { routes, identities, hints, webhookSecret: WEBHOOK_SECRET },
      async parkedEvents() {
        const { rows: schemas } = await pool.query<{ schema: string }>(
          `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'parked_events'`,
        );
        const parked: Array<{ schema: string; consumer: string; type: string; error: string }> = [];
        for (const { schema } of schemas) {
          const { rows } = await pool.query<{ consumer: string; type: string; error: string }>(
            `SELECT consumer, type, left(error, 300) AS error FROM ${pg.escapeIdentifier(schema)}.parked_events
              WHERE replayed_at IS NULL ORDER BY id`,
          );
          parked.push(...rows.map((r) => ({ schema, ...r })));
        }
        return parked;
      },
      stop: () => stops.stopAll(),
    };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}

type Json = Record<string, unknown>;

async function seed(base: string, routes: readonly RouteSpec[]) {
  let n = 0;
  const call = async (
    method: string,
    p: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: Json }> => {
    n += 1;
    const r = await fetch(`${base}${p}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `192.168.${n >> 8}.${n & 255}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      // not JSON
    }
    return { status: r.status, body: parsed };
  };
  const must = async (method: string, p: string, body: unknown, token?: string) => {
    const r = await call(method, p, body, token);
    if (r.status >= 300) throw new Error(`seeding ${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const adminSession = await must('POST', '/api/auth/login', ADMIN);
  const shopperSession = await must('POST', '/api/auth/register', SHOPPER);
  const adminToken = adminSession.token as string;
  const userOf = (s: Json) => s.user as { id: string; email: string };

  const shopperToken = shopperSession.token as string;
  /** POSTs a new row as `token`'s holder; its id. */
  const created = async (p: string, body: unknown, token: string) => String((await must('POST', p, body, token)).id);
  const productIds: string[] = [];
  for (const [i, name] of ['Fuzz Kurta', 'Fuzz Saree', 'Fuzz Dupatta', 'Fuzz Doomed Stole'].entries()) {
    const product = {
      name,
      price: 499 + i * 100,
      quantity: 100_000,
      category: 'Men',
      ...(i === 1 ? { sizeQuantities: { S: 50_000, M: 50_000 } } : {}),
    };
    productIds.push(await created('/api/products', product, adminToken));
  }
  const doomedProduct = productIds.pop()!;
  const collection = async (name: string) => {
    const id = await created('/api/collections', { name }, adminToken);
    await must('POST', `/api/collections/${id}/products`, { productId: productIds[0] }, adminToken);
    return id;
  };
  const section = (name: string) =>
    created('/api/home/sections', { name, contentType: 'products', contentIds: productIds.slice(0, 2) }, adminToken);
  const coupon = (code: string) =>
    created(
      '/api/coupons',
      { code, discountType: 'percentage', discountValue: 10, minOrderAmount: 0, usageLimit: 1_000_000 },
      adminToken,
    );
  const address = (line: string) =>
    created(
      '/api/addresses',
      { name: SHOPPER.name, phone: SHOPPER.phone, addressLine1: line, city: 'Bengaluru', zipCode: '560001' },
      shopperToken,
    );
  // A paid order of the shopper's, so order numbers and payment ids exist.
  const order = async (receipt: string) => {
    const created = await must(
      'POST',
      '/api/payment/create-order',
      guestOrder(receipt, 0, [{ productId: productIds[0]!, quantity: 1 }], {
        customerName: SHOPPER.name,
        customerPhone: SHOPPER.phone,
        customerEmail: SHOPPER.email,
      }),
      shopperToken,
    );
    const paid = await sandboxPay(`${base}/razorpay-sandbox`, created.id as string);
    const verified = await must('POST', '/api/payment/verify', paid, shopperToken);
    return { razorpayOrderId: String(created.id), paid, orderNumber: verified.orderNumber as string | null };
  };
  // A testimonial, through the route table's own schema (submitting may need a delivered order: best effort).
  const submit = routes.find((r) => routeKey(r) === 'POST /api/testimonials');
  const rng = createRng(1);
  const testimonial = async () => {
    for (let i = 0; submit?.body && i < 5; i++) {
      const t = await call('POST', '/api/testimonials', validValue(submit.body, { rng, hints: {} }), shopperToken);
      if (t.status === 201 && typeof t.body.id === 'string') return [t.body.id];
    }
    return [];
  };

  // Each kind twice: one row for every method, one only DELETE is sent (so the others keep theirs).
  const kept = {
    collection: await collection('Fuzz Collection'),
    section: await section('Fuzz Picks'),
    coupon: await coupon('FUZZ10'),
    address: await address('12 MG Road'),
    order: await order('rcpt_fuzz'),
    testimonial: await testimonial(),
  };
  const doomed = {
    collection: await collection('Fuzz Doomed Collection'),
    section: await section('Fuzz Doomed Picks'),
    coupon: await coupon('FUZZDOOMED'),
    address: await address('13 MG Road'),
    order: await order('rcpt_fuzz_doomed'),
    testimonial: await testimonial(),
  };
  // An unpaid order too (webhooks and verify may pay or fail it).
  const open = await must('POST', '/api/payment/create-order', { amount: 250, receipt: 'rcpt_open' });
  const orderNumbers = (o: typeof kept.order) => (o.orderNumber ? [o.orderNumber] : []);
  const paymentOrders = [kept.order.razorpayOrderId, doomed.order.razorpayOrderId, String(open.id)];

  const hints: Hints = {
    'param:/api/products/:id': productIds,
    'param:DELETE /api/products/:id': [doomedProduct],
    'param:/api/collections/:id': [kept.collection],
    'param:DELETE /api/collections/:id': [doomed.collection],
    'param:/api/home/sections/:id': [kept.section],
    'param:DELETE /api/home/sections/:id': [doomed.section],
    'param:/api/coupons/:id': [kept.coupon],
    'param:DELETE /api/coupons/:id': [doomed.coupon],
    'param:/api/addresses/:id': [kept.address],
    'param:DELETE /api/addresses/:id': [doomed.address],
    'param:/api/testimonials/admin/:id': kept.testimonial,
    'param:DELETE /api/testimonials/admin/:id': doomed.testimonial,
    'param:/api/orders/admin/:orderNumber': orderNumbers(kept.order),
    'param:DELETE /api/orders/admin/:orderNumber': orderNumbers(doomed.order),
    'field:productId': productIds,
    'field:contentIds': [...productIds, kept.collection],
    'field:collection': [kept.collection],
    'field:code': ['FUZZ10'],
    'field:couponCode': ['FUZZ10'],
    'field:razorpay_order_id': paymentOrders,
    'field:razorpay_payment_id': [kept.order.paid.razorpay_payment_id],
    'field:razorpay_signature': [kept.order.paid.razorpay_signature],
    'field:order_id': paymentOrders,
    'field:orderId': paymentOrders,
    'field:razorpayOrderId': paymentOrders,
    'field:email': [SHOPPER.email, ADMIN.email],
    'field:customerEmail': [SHOPPER.email],
    'field:password': [SHOPPER.password],
    'field:pincode': ['560001'],
    'field:zipCode': ['560001'],
  };
  return {
    identities: {
      jwtSecret: JWT_SECRET,
      user: { token: shopperSession.token as string, ...userOf(shopperSession) },
      admin: { token: adminToken, ...userOf(adminSession) },
    },
    hints,
  };
}
