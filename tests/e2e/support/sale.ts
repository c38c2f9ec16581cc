import type pg from 'pg';
import { afterAll, expect } from 'vitest';
import { httpClient, type HttpClient } from '@shop/test-support/http';
import { freePortRun } from '@shop/test-support/port-run';
import { startTestRedis } from '@shop/test-support/redis-server';
import { Stops } from '@shop/test-support/stops';
import { createTestDatabase } from '@shop/test-support/test-database';
import { startDistributed } from '../../../scripts/distributed-processes.ts';
import { createProduct, createTenPercentCoupon, DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { guestOrder } from '@shop/test-support/purchase';

export { createProduct, DEFAULT_ADMIN };

/**
 * What the sale, outage, restart and shutdown e2e tests share: setting up the sale (a product, a coupon),
 * the shapes they read and a cut-tolerant POST.
 */

export interface PayResponse {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}
export interface OrderView {
  orderNumber: string;
  razorpayOrderId: string;
  couponCode: string | null;
  items: Array<{ Product: { id: string }; orderedQuantity: number }>;
}
export interface CouponView {
  code: string;
  usageLimit?: number | null;
  usedCount: number;
  reservedCount: number;
}

/** A POST that answers 'cut' when the connection is reset or refused: the process died under the request. */
export async function post(
  base: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> } | 'cut'> {
  try {
    const r = await fetch(base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: r.status, body: (await r.json().catch(() => ({}))) as Record<string, unknown> };
  } catch {
    return 'cut';
  }
}

/** The sale's coupon: 10% off any order, `usageLimit` uses. */
export async function createSaleCoupon(
  api: HttpClient,
  token: string,
  coupon: { code: string; usageLimit: number; description: string },
): Promise<void> {
  const created = await createTenPercentCoupon(api, token, coupon);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** A line printer for a long test's progress: `[label +12.3 s] what`, the time since `t0`. */
export const progressLog =
  (label: string, t0: number) =>
  (what: string): void =>
    console.log(`[${label} +${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);

/**
 * The environment of a distributed sale shop: `env` (its stores, data folder, secrets) with the admin it seeds,
 * warn-level logs, and no Razorpay keys (the provider is the shop's own sandbox).
 */
export const saleShopEnv = (
  admin: { email: string; password: string },
  env: Record<string, string | undefined>,
): Record<string, string | undefined> => ({
  ...env,
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  LOG_LEVEL: 'warn',
  RAZORPAY_KEY_ID: undefined,
  RAZORPAY_KEY_SECRET: undefined,
});

/** The admin's token from /api/auth/login (the test fails here when the login is refused). */
export async function adminToken(api: HttpClient, admin: { email: string; password: string }): Promise<string> {
  const login = await api<{ token: string }>('POST', '/api/auth/login', { body: admin });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  expect(login.body.token).toBeTruthy();
  return login.body.token;
}

/** The test file's Stops, all run after its tests (a failing one ignored: the tests have spoken). */
export function stopsAfterAll(): Stops {
  const stops = new Stops();
  afterAll(() => stops.stopAll());
  return stops;
}

/**
 * What a distributed sale shop stands on, each undone with the test's `stops`: a fresh database (unmigrated:
 * the services migrate it), a Redis of the test's own (BullMQ queues must not be shared with another shop)
 * and a data folder `shop-<name>-*`; `env` names them for the shop. The Redis stopped at the end is the one
 * `redis` holds then: a test may start another in its place.
 */
export async function saleStores(stops: Stops, name: string) {
  const db = await createTestDatabase({ migrate: false });
  stops.push(db.drop);
  const redis = await startTestRedis();
  const dataDir = stops.tempDir(`shop-${name}-`);
  const stores = { db, redis, dataDir, env: { DATABASE_URL: db.url, REDIS_URL: redis.url, DATA_DIR: dataDir } };
  stops.push(() => stores.redis.stop());
  return stores;
}

/** A sale's product as the admin form sends it: `units` of it at ₹999 in Men, unless `fields` say otherwise. */
export const saleProduct = (name: string, units: number, fields: Record<string, string> = {}) => ({
  name,
  price: '999',
  quantity: String(units),
  category: 'Men',
  ...fields,
});

/** What a sale test starts from: the admin's token, and the sale's `product` listed by that admin. */
export async function openSale(
  api: HttpClient,
  admin: { email: string; password: string },
  product: Record<string, string>,
): Promise<{ token: string; productId: string }> {
  const token = await adminToken(api, admin);
  return { token, productId: await createProduct(api, token, product) };
}

/**
 * A distributed sale shop on free ports (`saleShopEnv(admin, env)`), stopped with the test's `stops`, and the
 * sale's product created by its admin: the gateway's base URL, a client, the admin's token and the product id.
 */
export async function startDistributedSale(opts: {
  admin: { email: string; password: string };
  env: Record<string, string | undefined>;
  stops: Stops;
  progress: (what: string) => void;
  product: Record<string, string>;
}): Promise<{ base: string; api: HttpClient; token: string; productId: string }> {
  const ports = await freePortRun();
  const shop = await startDistributed({ env: saleShopEnv(opts.admin, opts.env), ...ports });
  opts.stops.push(() => shop.stop());
  const base = `http://127.0.0.1:${ports.gatewayPort}`;
  const api = httpClient(base);
  opts.progress('shop started');
  return { base, api, ...(await openSale(api, opts.admin, opts.product)) };
}

/**
 * A guest's create-order body: buyer `n` buys one unit of the product (no size, no colour) with the receipt
 * given; `orderData` adds to or replaces the buyer's details (address, name, phone, e-mail, coupon, ...).
 */
export const saleOrder = (receipt: string, n: number, productId: string, orderData: Record<string, unknown> = {}) =>
  guestOrder(receipt, n, [{ productId, quantity: 1 }], orderData);

/** What one buyer of a crash sale saw; 'cut': the request was cut off (its process died under it). */
export interface SaleBuyer {
  n: number;
  created?: string; // provider order id
  createStatus?: number | 'cut';
  paid?: PayResponse | 'cut' | 'refused';
  verified?: { status: number | 'cut'; orderNumber?: string | null };
}

/**
 * One buyer of a crash sale, recorded in `b`: create-order with `order` from `headers`; every fourth buyer
 * then walks away without paying; the others pay in the sandbox and verify from `verifyHeaders`, `onVerify`
 * running the moment the verify is on its way (where a test kills a process), its body `verifyBody(payment)`
 * (the seeds' amount-only flow sends the cart there). Answers the verify's answer.
 */
export async function crashSaleBuy(
  base: string,
  b: SaleBuyer,
  order: unknown,
  headers: Record<string, string>,
  verifyHeaders: Record<string, string>,
  onVerify: () => void,
  /** The verify's body for the payment (default: the payment as the sandbox answered it). */
  verifyBody: (paid: PayResponse) => unknown = (paid) => paid,
): Promise<{ status: number; body: Record<string, unknown> } | 'cut' | undefined> {
  const c = await post(base, '/api/payment/create-order', order, headers);
  if (c === 'cut') return void (b.createStatus = 'cut');
  b.createStatus = c.status;
  if (c.status !== 201) return;
  b.created = c.body.id as string;
  if (b.n % 4 === 0) return; // walks away without paying
  const p = await post(base, `/razorpay-sandbox/v1/checkout/orders/${b.created}/pay`, {});
  if (p === 'cut') return void (b.paid = 'cut');
  if (p.status !== 200) return void (b.paid = 'refused');
  b.paid = p.body as unknown as PayResponse;
  const pending = post(base, '/api/payment/verify', verifyBody(b.paid), verifyHeaders);
  onVerify();
  const v = await pending;
  if (v === 'cut') b.verified = { status: 'cut' };
  else b.verified = { status: v.status, orderNumber: v.body.orderNumber as string | null | undefined };
  return v;
}

/** The sale buyers whose verify was answered 2xx (with the order number it gave, if any), for expectEachOrderOnce. */
export const confirmedBuyers = (buyers: SaleBuyer[]): ConfirmedPayment[] =>
  buyers
    .filter((b) => b.verified && b.verified.status !== 'cut' && b.verified.status < 300)
    .map((b) => ({ id: b.created!, orderNumber: b.verified!.orderNumber, who: `buyer ${b.n}` }));

/** A payment a verify confirmed: its provider order id, the order number the verify answered (if any), and whose. */
export interface ConfirmedPayment {
  id: string;
  orderNumber?: string | null;
  who: string;
}

/**
 * Every placed order is the only one of its provider order, and every payment in `confirmed` is exactly one
 * placed order, with the order number its verify answered.
 */
export function expectEachOrderOnce(orders: OrderView[], confirmed: ConfirmedPayment[]): void {
  const byProviderOrder = new Map<string, OrderView[]>();
  for (const o of orders)
    byProviderOrder.set(o.razorpayOrderId, [...(byProviderOrder.get(o.razorpayOrderId) ?? []), o]);
  for (const [id, list] of byProviderOrder) expect(list, `orders of ${id}`).toHaveLength(1);
  for (const c of confirmed) {
    const list = byProviderOrder.get(c.id) ?? [];
    expect(list, `${c.who}'s confirmed order ${c.id}`).toHaveLength(1);
    if (c.orderNumber) expect(list[0]!.orderNumber, `${c.who}'s order number`).toBe(c.orderNumber);
  }
}

/** The provider orders whose payment the shop refunded instead of placing an order (checkout's log says so). */
export async function refundedProviderOrders(db: pg.Client | pg.Pool): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT data->>'razorpayOrderId' AS id FROM checkout.events
      WHERE type = 'PaymentFailed' AND data->>'reason' ILIKE '%refund%'`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * How many refunds checkout decided (RefundDue, once per payment) for each provider order: money taken that
 * did not become an order, whatever the reason (paid after expiry, refused at verify, paid but never placed).
 */
export async function refundsDueByProviderOrder(db: pg.Client | pg.Pool): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; n: number }>(
    `SELECT data->>'razorpayOrderId' AS id, count(*)::int AS n FROM checkout.events WHERE type = 'RefundDue' GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}
