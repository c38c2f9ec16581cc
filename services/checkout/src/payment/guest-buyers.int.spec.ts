/**
 * Issue 22, item 5 ("Guests behind one address share one budget"): in India most mobile shoppers share their
 * carrier's addresses (CGNAT), so guests are told apart by the signed guest identity each browser gets (an
 * HttpOnly cookie), not by their address. Whole shop over HTTP on real Postgres, default limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { GUEST_COOKIE } from '@shop/shared/auth/guest-identity';
import { CookieJar, httpClient } from '@shop/test-support/http';
import { guestOrder } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';

/** One carrier's shared address, as every test here sees the crowd (carrier-grade NAT space, RFC 6598). */
const CARRIER = { 'x-forwarded-for': '100.64.7.1' };

describe('issue 22: guests behind one address are each a buyer of their own', () => {
  let shop: TestShop;
  let admin: string;
  beforeAll(async () => {
    shop = await startTestShop();
    admin = await shop.login();
  });
  afterAll(() => shop.stop());

  async function product(name: string, quantity: number): Promise<string> {
    const form = new FormData();
    for (const [k, v] of Object.entries({ name, category: 'Men', price: '499', quantity: String(quantity) }))
      form.append(k, v);
    const r = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
    expect(r.status).toBe(201);
    return r.body.id;
  }
  const available = async (productId: string) =>
    (await shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity;

  /** A browser of its own (its own cookie jar) buys one unit: create-order, pay in the sandbox, verify. */
  async function guestBuysOne(n: number, productId: string) {
    const browser = httpClient(shop.url, new CookieJar());
    const created = await browser<{ id: string }>('POST', '/api/payment/create-order', {
      headers: CARRIER,
      body: guestOrder(`rcpt_nat_${n}`, n, [{ productId, quantity: 1 }]),
    });
    if (created.status !== 201) return { step: 'create-order', status: created.status, body: created.body };
    const paid = await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
    const verified = await browser<{ orderNumber: string | null }>('POST', '/api/payment/verify', {
      headers: CARRIER,
      body: paid,
    });
    return { step: 'verify', status: verified.status, body: verified.body };
  }

  it('100 guests from one address, each in its own browser, each buy one unit: no 429, all 100 units sold', async () => {
    const productId = await product('NAT Sale Kurta', 100);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => guestBuysOne(i + 1, productId)));
    // 200 with the order number, or 202 when the orders list is slow to show it at the peak: both are a sale.
    const refused = results.filter((r) => r.step !== 'verify' || (r.status !== 200 && r.status !== 202));
    expect(refused).toEqual([]);
    const ordersOfProduct = async () =>
      (
        await shop.api<{ orderNumber: string; items: { Product: { id: string } }[] }[]>(
          'GET',
          '/api/orders/admin/all',
          { token: admin },
        )
      ).body.filter((o) => o.items.some((i) => i.Product.id === productId));
    const orders = await waitUntil(async () => {
      const found = await ordersOfProduct();
      return found.length >= 100 ? found : null;
    }, '100 orders placed');
    expect(new Set(orders.map((o) => o.orderNumber)).size).toBe(100);
    // the product read model follows the sales a moment later
    await waitUntil(async () => (await available(productId)) === 0, 'all 100 units shown sold');
  });

  it('gives each browser its own signed HttpOnly guest cookie, and keeps it', async () => {
    const jar = new CookieJar();
    const browser = httpClient(shop.url, jar);
    const productId = await product('Cookie Kurta', 5);
    const first = await browser<{ id: string }>('POST', '/api/payment/create-order', {
      headers: CARRIER,
      body: guestOrder('rcpt_cookie_1', 1, [{ productId, quantity: 1 }]),
    });
    expect(first.status).toBe(201);
    const cookie = jar.get(GUEST_COOKIE);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    await browser('POST', '/api/payment/create-order', {
      headers: CARRIER,
      body: guestOrder('rcpt_cookie_2', 1, [{ productId, quantity: 1 }]),
    });
    expect(jar.get(GUEST_COOKIE)).toBe(cookie);
  });

  it('one browser is still held to its own budget: 30 payment calls a minute, then 429', async () => {
    const browser = httpClient(shop.url, new CookieJar());
    const productId = await product('Budget Kurta', 50);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const r = await browser('POST', '/api/payment/create-order', {
        headers: CARRIER,
        body: guestOrder(`rcpt_budget_${i}`, 7, [{ productId, quantity: 1 }]),
      });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Meanwhile another browser behind the same address is not held back by it.
    expect((await guestBuysOne(999, productId)).status).toBe(200);
  });

  it('one browser never holds stock through more than its live-checkout cap, even firing checkouts at once', async () => {
    const browser = httpClient(shop.url, new CookieJar());
    // Establish the browser's identity first, as a page load would, so the concurrent calls share it.
    const warmup = await product('Warmup Kurta', 1);
    expect(
      (
        await browser('POST', '/api/payment/create-order', {
          headers: CARRIER,
          body: guestOrder('rcpt_cap_0', 8, [{ productId: warmup, quantity: 1 }]),
        })
      ).status,
    ).toBe(201);
    const products = await Promise.all(Array.from({ length: 8 }, (_, i) => product(`Cap Kurta ${i}`, 1)));
    await Promise.all(
      products.map((productId, i) =>
        browser('POST', '/api/payment/create-order', {
          headers: CARRIER,
          body: guestOrder(`rcpt_cap_${i + 1}`, 8, [{ productId, quantity: 1 }]),
        }),
      ),
    );
    // What the browser holds, as its live-checkout places say (the product read model follows a moment later).
    const places = await shop.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM checkout.live_checkouts WHERE reservation_id IN (
         SELECT data->>'reservationId' FROM checkout.events
          WHERE type = 'PaymentOrderCreated' AND data->>'receipt' LIKE 'rcpt_cap_%')`,
    );
    expect(places.rows[0]!.n).toBeGreaterThanOrEqual(1);
    expect(places.rows[0]!.n).toBeLessThanOrEqual(3); // MAX_LIVE_CHECKOUTS_PER_BUYER
    // and the shop never shows more than that many of the nine one-unit products held
    const shownHeld = async () =>
      (await Promise.all([warmup, ...products].map(available))).filter((q) => q === 0).length;
    await waitUntil(async () => (await shownHeld()) === places.rows[0]!.n, 'the product list to show the holds');
  });
});
