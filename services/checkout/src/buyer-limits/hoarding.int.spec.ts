/**
 * Issue 15, defect 4 ("Anonymous hoarding of stock and coupons") and defect 8 ("A no-cart open order goes
 * to whoever verifies it first"), through the whole shop over HTTP on real Postgres, with the default caps
 * (MAX_UNITS_PER_PRODUCT 10, MAX_LIVE_CHECKOUTS_PER_BUYER 3, 30 payment calls a minute per buyer).
 *
 * A guest buyer is a browser (issue 22): its signed guest cookie, kept in a cookie jar of its own. Test
 * clients connect from loopback, where the shop trusts X-Forwarded-For (a local proxy): each browser also
 * comes from an address of its own, so the per-address backstops of one test do not spill into another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { TOO_MANY_CHECKOUTS, TOO_MANY_CHECKOUTS_FROM_ADDRESS } from './live-checkouts.ts';
import { createTenPercentCoupon } from '@shop/test-support/fixtures';
import { CookieJar, httpClient } from '@shop/test-support/http';
import { guestOrderData } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';

interface Answer {
  id: string;
  amount: number;
  message: string;
  title?: string;
}
type Item = { productId: string; quantity: number; size?: string | null };

let nextAddress = 1;
/** A guest's browser: its cookie jar (its guest identity) and the client address it comes from. */
interface Browser {
  address: string;
  jar: CookieJar;
}
/** A fresh browser from a fresh client address (one shopper), or from `address` (a NAT shared with others). */
const newAddress = (address?: string): Browser => {
  const n = nextAddress++;
  return { address: address ?? `10.77.${(n >> 8) & 255}.${n & 255}`, jar: new CookieJar() };
};
let nextBuyer = 1;

const orderData = (items: Item[], extra: Record<string, unknown> = {}) => {
  const n = nextBuyer++;
  return guestOrderData(n, items, { customerEmail: `hoard${n}@example.in`, couponCode: null, ...extra });
};

function suite(shopOf: () => TestShop) {
  const shop = () => shopOf();
  return {
    createOrder: (browser: Browser, items: Item[], extra: Record<string, unknown> = {}, token?: string) =>
      httpClient(shop().url, browser.jar)<Answer>('POST', '/api/payment/create-order', {
        token,
        headers: { 'x-forwarded-for': browser.address },
        body: { amount: 1, currency: 'INR', receipt: `rcpt_${Date.now()}`, orderData: orderData(items, extra) },
      }),
    verify: (browser: Browser, body: object, token?: string) =>
      httpClient(shop().url, browser.jar)<{ success: boolean; orderNumber: string; message: string }>(
        'POST',
        '/api/payment/verify',
        {
          token,
          headers: { 'x-forwarded-for': browser.address },
          body,
        },
      ),
    pay: (orderId: string) => sandboxPay(`${shop().url}/razorpay-sandbox`, orderId),
    async createProduct(fields: Record<string, string>, admin: string): Promise<string> {
      const form = new FormData();
      for (const [k, v] of Object.entries({ category: 'Men', ...fields })) form.append(k, v);
      const r = await shop().api<{ id: string }>('POST', '/api/products', { token: admin, form });
      expect(r.status).toBe(201);
      return r.body.id;
    },
    async signUp(name: string): Promise<{ id: string; token: string }> {
      const r = await shop().api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
        body: {
          name,
          email: `${name.toLowerCase()}-${Date.now()}@example.in`,
          phone: '+919800000000',
          password: 'secret1',
        },
      });
      expect(r.status).toBe(201);
      return { id: r.body.user.id, token: r.body.token };
    },
    async eventCount(type: string, streamId: string): Promise<number> {
      const r = await shop().db.pool.query(
        'SELECT count(*)::int AS n FROM checkout.events WHERE type = $1 AND stream_id = $2',
        [type, streamId],
      );
      return r.rows[0].n;
    },
    async stockEvents(productId: string, type: string): Promise<number> {
      const r = await shop().db.pool.query(
        `SELECT count(*)::int AS n FROM catalog.events WHERE stream_id LIKE $1 AND type = $2`,
        [`stock-${productId}%`, type],
      );
      return r.rows[0].n;
    },
    /** Whether the checkout of this provider order still holds one of its buyer's live-checkout places. */
    async holdsPlace(razorpayOrderId: string): Promise<boolean> {
      const r = await shop().db.pool.query(
        `SELECT 1 FROM checkout.live_checkouts l JOIN checkout.events e
           ON e.stream_id = $1 AND e.type = 'PaymentOrderCreated' AND e.data->>'reservationId' = l.reservation_id`,
        [`payment-${razorpayOrderId}`],
      );
      return r.rowCount === 1;
    },
  };
}

describe('issue 15: hoarding stock and coupons, and open orders bound to their opener', () => {
  let shop: TestShop;
  let admin: string;
  const t = suite(() => shop);
  beforeAll(async () => {
    shop = await startTestShop();
    admin = await shop.login();
  });
  afterAll(() => shop.stop());

  it('defect 4: one guest order for S 30 + M 30 no longer holds all 60 units: 400 naming the product and lines, and a real buyer still gets one', async () => {
    const productId = await t.createProduct(
      { name: 'Hoard Kurta', price: '1000', quantity: '0', sizeQuantities: JSON.stringify({ S: 30, M: 30 }) },
      admin,
    );
    const hoarder = newAddress();
    const all = await t.createOrder(hoarder, [
      { productId, quantity: 30, size: 'S' },
      { productId, quantity: 30, size: 'M' },
    ]);
    expect(all).toMatchObject({
      status: 400,
      body: {
        message: `At most 10 units of one product per order, all sizes together: items[0].quantity + items[1].quantity ask for 60 of product ${productId}`,
      },
    });
    // summed across sizes, and one line on its own
    expect(
      (
        await t.createOrder(hoarder, [
          { productId, quantity: 6, size: 'S' },
          { productId, quantity: 5, size: 'M' },
        ])
      ).status,
    ).toBe(400);
    expect((await t.createOrder(hoarder, [{ productId, quantity: 11, size: 'S' }])).body.message).toBe(
      `At most 10 units of one product per order: items[0].quantity asks for 11 of product ${productId}`,
    );
    expect(await t.stockEvents(productId, 'StockReserved')).toBe(0);
    // within the cap it is a normal order, and the next buyer is served
    const fair = await t.createOrder(hoarder, [
      { productId, quantity: 5, size: 'S' },
      { productId, quantity: 5, size: 'M' },
    ]);
    expect(fair.status).toBe(201);
    expect((await t.createOrder(newAddress(), [{ productId, quantity: 1, size: 'S' }])).status).toBe(201);
  });

  it("defect 4: verify-with-cart (the seeds' open-order flow) refuses a cart above the unit cap with 400 and holds nothing", async () => {
    const productId = await t.createProduct({ name: 'Open Cap Tee', price: '1000', quantity: '50' }, admin);
    const address = newAddress();
    const open = await httpClient(shop.url, address.jar)<Answer>('POST', '/api/payment/create-order', {
      headers: { 'x-forwarded-for': address.address },
      body: { amount: 1000, currency: 'INR', receipt: `rcpt_open_${Date.now()}` },
    });
    expect(open.status).toBe(201);
    const paid = await t.pay(open.body.id);
    const over = await t.verify(address, { ...paid, orderData: orderData([{ productId, quantity: 11 }]) });
    expect(over).toMatchObject({
      status: 400,
      body: {
        message: `At most 10 units of one product per order: items[0].quantity asks for 11 of product ${productId}`,
      },
    });
    expect(await t.stockEvents(productId, 'StockReserved')).toBe(0);
    expect(await t.eventCount('PaymentOrderCreated', `payment-${open.body.id}`)).toBe(0);
    // the same payment with a fair cart is placed
    const placed = await t.verify(address, { ...paid, orderData: orderData([{ productId, quantity: 1 }]) });
    expect(placed.status).toBe(200);
    expect(placed.body.success).toBe(true);
  });

  it('defect 4 / issue 22: the payment rate limit is keyed on the buyer (their signed guest cookie), not the e-mail the caller picks: 45 guest create-orders from one browser get 30 through', async () => {
    const address = newAddress();
    // the browser's first call gets its guest cookie (as a page load would); the rest share it
    expect((await t.createOrder(address, [])).status).toBe(400);
    // empty carts: refused by the handler (400) after the limiter counted them, so nothing is held
    const answers = await Promise.all(Array.from({ length: 44 }, () => t.createOrder(address, [])));
    expect(answers.filter((a) => a.status === 400 && a.body.message === 'Cart is empty')).toHaveLength(29);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(15);
    for (const l of limited) expect(l.body.message).toBe('Too many payment attempts, please try again in a minute');
    // a signed-in shopper behind the same address (a sale's crowd behind one NAT) has a budget of their own
    const member = await t.signUp('Nat');
    expect((await t.createOrder(newAddress(address.address), [], {}, member.token)).status).toBe(400);
    // and so does another browser at that address
    expect((await t.createOrder(newAddress(address.address), [])).status).toBe(400);
  });

  it("defect 4: 20 concurrent create-orders from one guest browser never hold more than 3 checkouts (the rest get 429 or replace the browser's earlier ones) and refused ones keep nothing", async () => {
    const productId = await t.createProduct({ name: 'Crowd Shirt', price: '1000', quantity: '100' }, admin);
    const address = newAddress();
    const warmup = await t.createOrder(address, [{ productId, quantity: 1 }]);
    expect(warmup.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.createOrder(address, [{ productId, quantity: 1 }])),
    );
    const refused = answers.filter((a) => a.status !== 201);
    for (const r of refused) expect(r).toMatchObject({ status: 429, body: { message: TOO_MANY_CHECKOUTS } });
    // Every answered create-order either holds one unit or gave it back before answering; replaced ones gave
    // theirs back before the newer one held stock. The browser holds at most 3 checkouts, so at most 3 units.
    const held = async () => {
      const r = await shop.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM checkout.live_checkouts WHERE buyer_key = (
           SELECT data->>'buyerKey' FROM checkout.events WHERE stream_id = $1 AND type = 'PaymentOrderCreated')`,
        [`payment-${warmup.body.id}`],
      );
      return r.rows[0]!.n;
    };
    expect(await held()).toBeGreaterThanOrEqual(1);
    expect(await held()).toBeLessThanOrEqual(3);
    const reserved = await t.stockEvents(productId, 'StockReserved');
    const released = await t.stockEvents(productId, 'StockReleased');
    expect(reserved - released).toBe(await held());

    // keyed by browser for guests and by account when signed in: others at that address are not blocked
    const member = await t.signUp('Meera');
    expect(
      (await t.createOrder(newAddress(address.address), [{ productId, quantity: 1 }], {}, member.token)).status,
    ).toBe(201);
    expect((await t.createOrder(newAddress(address.address), [{ productId, quantity: 1 }])).status).toBe(201);
  });

  it('defect 4: a refused create-order (out of stock, bad coupon) gives its live-checkout place straight back', async () => {
    const gone = await t.createProduct({ name: 'Sold Out Cap', price: '1000', quantity: '0' }, admin);
    const ample = await t.createProduct({ name: 'Ample Cap', price: '1000', quantity: '50' }, admin);
    const address = newAddress();
    for (let i = 0; i < 3; i++)
      expect((await t.createOrder(address, [{ productId: gone, quantity: 1 }])).status).toBe(409);
    expect((await t.createOrder(address, [{ productId: ample, quantity: 1 }], { couponCode: 'NOSUCH' })).status).toBe(
      400,
    );
    const held = await Promise.all(
      Array.from({ length: 3 }, () => t.createOrder(address, [{ productId: ample, quantity: 1 }])),
    );
    expect(held.map((h) => h.status)).toEqual([201, 201, 201]);
  });

  it('defect 4: 5 concurrent unpaid guest checkouts from one browser hold a limit-5 coupon once, so 4 other buyers still get it', async () => {
    const productId = await t.createProduct({ name: 'Coupon Hoard Tee', price: '1000', quantity: '100' }, admin);
    const c = await createTenPercentCoupon(shop.api, admin, { code: 'HOARD5', usageLimit: 5, isActive: true });
    expect(c.status).toBeLessThan(300);
    const address = newAddress();
    expect((await t.createOrder(address, [])).status).toBe(400); // the browser's guest cookie
    const heldMessage =
      'You already have an unpaid checkout using coupon HOARD5; pay for it or wait for it to expire before using the coupon again';
    const email = 'hoarder@example.in';
    const tries = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.createOrder(address, [{ productId, quantity: 1 }], { couponCode: 'hoard5', customerEmail: email }),
      ),
    );
    const won = tries.filter((a) => a.status === 201);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const w of won) expect(w.body.amount).toBe(90000);
    // the others were refused for the held coupon (409), or before that for too many checkouts (429)
    for (const l of tries.filter((a) => a.status !== 201)) {
      expect([409, 429]).toContain(l.status);
      if (l.status === 409) expect(l.body.message).toBe(heldMessage);
    }
    // a newer checkout of the browser replaced its older ones: one live use of the coupon is left
    await waitUntil(
      async () =>
        (
          await shop.db.pool.query(
            `SELECT 1 FROM checkout.payment_orders WHERE razorpay_order_id = ANY($1) AND status = 'created'`,
            [won.map((w) => w.body.id)],
          )
        ).rowCount === 1,
      'one of the browser checkouts to stay live',
    );

    // the same guest e-mail from another browser is the same buyer too
    const sameEmail = await t.createOrder(newAddress(), [{ productId, quantity: 1 }], {
      couponCode: 'HOARD5',
      customerEmail: email,
    });
    expect(sameEmail).toMatchObject({ status: 409, body: { message: heldMessage } });

    // four real buyers still get the coupon; then it is used up
    for (let i = 0; i < 4; i++) {
      const other = await t.createOrder(newAddress(), [{ productId, quantity: 1 }], { couponCode: 'HOARD5' });
      expect(other.status).toBe(201);
      expect(other.body.amount).toBe(90000);
    }
    expect(
      (await t.createOrder(newAddress(), [{ productId, quantity: 1 }], { couponCode: 'HOARD5' })).body.message,
    ).toMatch(/limit/i);
  });

  it("defect 4: a buyer's new checkout with a coupon replaces their unpaid one; once paid, they may hold it again; a signed-in shopper at the same address is a buyer of their own", async () => {
    const productId = await t.createProduct({ name: 'Coupon Again Tee', price: '1000', quantity: '100' }, admin);
    await shop.api('POST', '/api/coupons', {
      token: admin,
      body: {
        code: 'AGAIN',
        discountType: 'fixed',
        discountValue: 100,
        minOrderAmount: 0,
        usageLimit: 10,
        isActive: true,
      },
    });
    const address = newAddress();
    const older = await t.createOrder(address, [{ productId, quantity: 1 }], { couponCode: 'AGAIN' });
    expect(older.status).toBe(201);
    const first = await t.createOrder(address, [{ productId, quantity: 1 }], { couponCode: 'AGAIN' });
    expect(first.status).toBe(201);
    expect(await t.eventCount('PaymentOrderExpired', `payment-${older.body.id}`)).toBe(1);
    const member = await t.signUp('Ravi');
    expect(
      (
        await t.createOrder(
          newAddress(address.address),
          [{ productId, quantity: 1 }],
          { couponCode: 'AGAIN' },
          member.token,
        )
      ).status,
    ).toBe(201);

    expect((await t.verify(address, await t.pay(first.body.id))).status).toBe(200);
    // the settlement consumer commits the use; then the coupon is free for this buyer again
    const again = await waitUntil(async () => {
      const r = await shop.db.pool.query(
        `SELECT 1 FROM checkout.events WHERE type = 'CouponUseCommitted' AND data->>'reservationId' =
           (SELECT data->>'reservationId' FROM checkout.events WHERE stream_id = $1 AND type = 'PaymentOrderCreated')`,
        [`payment-${first.body.id}`],
      );
      return r.rowCount === 1;
    }, 'the paid coupon use to be committed');
    expect(again).toBe(true);
    expect((await t.createOrder(address, [{ productId, quantity: 1 }], { couponCode: 'AGAIN' })).status).toBe(201);
  });

  it('defect 8: an order opened by a signed-in buyer is placed only for that account: another account or a guest with the signed payment gets 403 and nothing is held', async () => {
    const productId = await t.createProduct({ name: 'Bound Shawl', price: '1200', quantity: '5' }, admin);
    const owner = await t.signUp('Owner');
    const stranger = await t.signUp('Stranger');
    const open = await shop.api<Answer>('POST', '/api/payment/create-order', {
      token: owner.token,
      headers: { 'x-forwarded-for': newAddress().address },
      body: { amount: 1200, currency: 'INR', receipt: `rcpt_bound_${Date.now()}` },
    });
    expect(open.status).toBe(201);
    const paid = await t.pay(open.body.id);
    const cart = () => orderData([{ productId, quantity: 1 }]);
    for (const token of [stranger.token, undefined]) {
      const taken = await t.verify(newAddress(), { ...paid, orderData: cart() }, token);
      expect(taken).toMatchObject({ status: 403, body: { message: 'Payment verification failed' } });
    }
    expect(await t.eventCount('PaymentOrderCreated', `payment-${open.body.id}`)).toBe(0);
    expect(await t.eventCount('PaymentFailed', `payment-${open.body.id}`)).toBe(0);
    expect(await t.stockEvents(productId, 'StockReserved')).toBe(0);

    const placed = await t.verify(newAddress(), { ...paid, orderData: cart() }, owner.token);
    expect(placed.status).toBe(200);
    // verify answers once the payment is recorded; the buyer's list shows the order a moment later
    const mine = await waitUntil(async () => {
      const r = await shop.api<Array<{ orderNumber: string }>>('GET', '/api/orders', { token: owner.token });
      return r.body.length > 0 ? r : null;
    }, "the owner's orders list");
    expect(mine.body.map((o) => o.orderNumber)).toContain(placed.body.orderNumber);
    const theirs = await shop.api<Array<{ orderNumber: string }>>('GET', '/api/orders', { token: stranger.token });
    expect(theirs.body).toHaveLength(0);
  });
});

describe('issue 15 defect 4 / issue 22: the per-address backstop, and an expired checkout gives its place back', () => {
  let shop: TestShop;
  let admin: string;
  const t = suite(() => shop);
  beforeAll(async () => {
    // a short hold so the test can watch it lapse; a small backstop so 3 browsers reach it
    shop = await startTestShop({ env: { RESERVATION_TTL_SECONDS: '2', MAX_LIVE_CHECKOUTS_PER_ADDRESS: '3' } });
    admin = await shop.login();
  });
  afterAll(() => shop.stop());

  it('3 unpaid checkouts from one address (3 browsers) block a 4th browser there until they expire; then the address may check out again', async () => {
    const productId = await t.createProduct({ name: 'Lapse Kurta', price: '1000', quantity: '20' }, admin);
    const address = newAddress().address;
    const held: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.createOrder(newAddress(address), [{ productId, quantity: 1 }]);
      expect(r.status).toBe(201);
      held.push(r.body.id);
    }
    expect(await t.createOrder(newAddress(address), [{ productId, quantity: 1 }])).toMatchObject({
      status: 429,
      body: { message: TOO_MANY_CHECKOUTS_FROM_ADDRESS },
    });
    // another address is not held back by it
    expect((await t.createOrder(newAddress(), [{ productId, quantity: 1 }])).status).toBe(201);
    for (const id of held) {
      await waitUntil(
        async () => (await t.eventCount('PaymentOrderExpired', `payment-${id}`)) === 1 && !(await t.holdsPlace(id)),
        `checkout ${id} to expire and give its place back`,
        20_000,
      );
    }
    expect((await t.createOrder(newAddress(address), [{ productId, quantity: 1 }])).status).toBe(201);
  });
});
