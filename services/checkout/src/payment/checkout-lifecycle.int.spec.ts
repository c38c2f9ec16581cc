/**
 * Issues 22 and 27: the checkout lifecycle. A cancelled or failed payment dialog gives its stock back at once,
 * a buyer's new checkout replaces their unpaid one, every captured payment ends as exactly one order or
 * exactly one refund (whatever the flow and whatever arrives when), and an unpaid checkout holds little and
 * briefly until its dialog opens. Whole shop over HTTP on real Postgres with the Razorpay sandbox (which
 * delivers its signed webhooks to the shop); each guest is a browser with a cookie jar of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { sandboxPay } from '@shop/razorpay-sandbox';
import { createTenPercentCoupon } from '@shop/test-support/fixtures';
import { CookieJar, httpClient, type HttpClient } from '@shop/test-support/http';
import { guestOrder, type PurchaseLine } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';

// A short hold before the dialog opens (2 s) and after it (6 s), so the tests can watch both lapse; the
// expiry sweep then runs every second.
const HOLD_BEFORE_DIALOG_S = 2;
const RESERVATION_TTL_S = 6;

let shop: TestShop;
let admin: string;
beforeAll(async () => {
  shop = await startTestShop({
    env: {
      HOLD_BEFORE_DIALOG_SECONDS: String(HOLD_BEFORE_DIALOG_S),
      RESERVATION_TTL_SECONDS: String(RESERVATION_TTL_S),
    },
  });
  admin = await shop.login();
});
afterAll(() => shop.stop());

let nextBuyer = 1;
interface Buyer {
  n: number;
  api: HttpClient;
  headers: Record<string, string>;
  token?: string;
}
/** A guest's own browser (its cookie jar: its signed guest identity) from an address of its own. */
function newBrowser(token?: string): Buyer {
  const n = nextBuyer++;
  return {
    n,
    api: httpClient(shop.url, new CookieJar()),
    headers: { 'x-forwarded-for': `10.27.${(n >> 8) & 255}.${n & 255}` },
    token,
  };
}

interface Created {
  id: string;
  amount: number;
  message?: string;
  title?: string;
}

const call = <T>(b: Buyer, path: string, body: unknown) =>
  b.api<T>('POST', path, { headers: b.headers, token: b.token, body });
const createOrder = (b: Buyer, lines: PurchaseLine[], details: Record<string, unknown> = {}) =>
  call<Created>(b, '/api/payment/create-order', guestOrder(`rcpt_life_${b.n}_${Date.now()}`, b.n, lines, details));
const cancel = (b: Buyer, orderId: string) =>
  call<{ status: string; message?: string }>(b, '/api/payment/cancel', { razorpay_order_id: orderId });
const dialogOpened = (b: Buyer, orderId: string) =>
  call<{ expiresAt: string; message?: string }>(b, '/api/payment/dialog-opened', { razorpay_order_id: orderId });
const verify = (b: Buyer, body: unknown) =>
  call<{ success?: boolean; orderNumber?: string | null; message?: string }>(b, '/api/payment/verify', body);
const pay = (orderId: string) => sandboxPay(`${shop.url}/razorpay-sandbox`, orderId);
const failPayment = async (orderId: string) => {
  const res = await fetch(`${shop.url}/razorpay-sandbox/v1/checkout/orders/${orderId}/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
};

async function product(name: string, quantity: number, price = '500'): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name, category: 'Men', price, quantity: String(quantity) })) form.append(k, v);
  const r = await shop.api<{ id: string }>('POST', '/api/products', { token: admin, form });
  expect(r.status).toBe(201);
  return r.body.id;
}
/** What a shopper sees of the product's stock (the public product page's read). */
const shownStock = async (productId: string) =>
  (await shop.api<{ quantity: number }>('GET', `/api/products/${productId}`)).body.quantity;

/** Waits until the shopper-visible stock is `quantity`; answers how long it took (ms). */
async function stockShows(productId: string, quantity: number, withinMs: number): Promise<number> {
  const start = Date.now();
  await waitUntil(async () => (await shownStock(productId)) === quantity, `stock ${quantity} shown`, withinMs);
  return Date.now() - start;
}

const countOf = async (orderId: string, type: string) =>
  (
    await shop.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM checkout.events WHERE stream_id = $1 AND type = $2',
      [paymentStreamId(orderId), type],
    )
  ).rows[0]!.n;
const ordersOf = async (orderId: string) =>
  (await shop.api<Array<{ razorpayOrderId: string }>>('GET', '/api/orders/admin/all', { token: admin })).body.filter(
    (o) => o.razorpayOrderId === orderId,
  ).length;
const holdsPlace = async (orderId: string) =>
  (await shop.db.pool.query('SELECT 1 FROM checkout.live_checkouts WHERE razorpay_order_id = $1', [orderId]))
    .rowCount === 1;

/** Units of the product sold (committed holds). */
const unitsCommitted = async (productId: string) =>
  (
    await shop.db.pool.query<{ n: number }>(
      `SELECT coalesce(sum((data->>'quantity')::int), 0)::int AS n FROM catalog.events
        WHERE stream_id LIKE $1 AND type = 'StockCommitted'`,
      [`stock-${productId}%`],
    )
  ).rows[0]!.n;
/** The product's stock events, for a failure's message. */
const stockLedger = async (productId: string) =>
  (
    await shop.db.pool.query<{ type: string; hold: string }>(
      `SELECT type, coalesce(data->>'reservationId', '') AS hold FROM catalog.events WHERE stream_id LIKE $1 ORDER BY global_position`,
      [`stock-${productId}%`],
    )
  ).rows
    .map((r) => `${r.type}(${r.hold})`)
    .join(' ');
const eventsOf = async (orderId: string) =>
  (
    await shop.db.pool.query<{ type: string }>(
      'SELECT type FROM checkout.events WHERE stream_id = $1 ORDER BY global_position',
      [paymentStreamId(orderId)],
    )
  ).rows
    .map((r) => r.type)
    .join(' ');

/** The end of a paid provider order: its orders and its refunds (decided, and issued by the provider). */
async function outcomeOf(orderId: string) {
  return {
    orders: await ordersOf(orderId),
    refundsDue: await countOf(orderId, 'RefundDue'),
    refunded: await countOf(orderId, 'PaymentRefunded'),
  };
}

describe('issue 27 defect 1: cancelling or failing the payment dialog gives the stock back at once', () => {
  it('cancel, then create-order again at once for the whole stock succeeds; others see the stock within 1 s; 4 cancels in a row never give 429', async () => {
    const productId = await product('Cancel Kurta', 3);
    const buyer = newBrowser();
    const first = await createOrder(buyer, [{ productId, quantity: 3 }]);
    expect(first.status).toBe(201);
    await stockShows(productId, 0, 5000);
    const cancelled = await cancel(buyer, first.body.id);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    const tookMs = await stockShows(productId, 3, 1000);
    expect(tookMs).toBeLessThan(1000);
    console.info(`stock shown again ${tookMs} ms after the cancel answered`);
    // and the product list (its cache learns of each stock change from the projection) shows it too
    await waitUntil(
      async () =>
        (await shop.api<Array<{ id: string; quantity: number }>>('GET', '/api/products')).body.find(
          (x) => x.id === productId,
        )?.quantity === 3,
      'the product list to show the stock again',
      1000,
    );
    expect(await holdsPlace(first.body.id)).toBe(false);
    // idempotent
    expect(await cancel(buyer, first.body.id)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    // Pay again, cancel again: the buyer is never locked out (not by stock, not by the live-checkout cap)
    for (let i = 0; i < 4; i++) {
      const again = await createOrder(buyer, [{ productId, quantity: 3 }]);
      expect(again.status).toBe(201);
      expect((await cancel(buyer, again.body.id)).body.status).toBe('cancelled');
    }
    const last = await createOrder(buyer, [{ productId, quantity: 3 }]);
    expect(last.status).toBe(201);
    expect(await countOf(first.body.id, 'PaymentOrderExpired')).toBe(1);
  });

  it("the provider's payment.failed webhook releases the same way (the sandbox's failed payment)", async () => {
    const productId = await product('Failed Kurta', 2);
    const buyer = newBrowser();
    const created = await createOrder(buyer, [{ productId, quantity: 2 }]);
    expect(created.status).toBe(201);
    expect(await dialogOpened(buyer, created.body.id)).toMatchObject({ status: 200 });
    await failPayment(created.body.id);
    // the webhook is delivered asynchronously by the sandbox; once it lands, the release is immediate
    await waitUntil(async () => (await countOf(created.body.id, 'PaymentFailed')) === 1, 'the payment.failed webhook');
    await stockShows(productId, 2, 1000);
    expect(await countOf(created.body.id, 'PaymentOrderExpired')).toBe(1);
    expect(await holdsPlace(created.body.id)).toBe(false);
    // another buyer can take the whole stock at once
    expect((await createOrder(newBrowser(), [{ productId, quantity: 2 }])).status).toBe(201);
  });

  it('cancel or dialog-opened by another buyer (another browser, another account, no cookie) is refused and changes nothing', async () => {
    const productId = await product('Owned Kurta', 1);
    const member = await shop.signUp('Owner Lifecycle', `owner-life-${Date.now()}@example.in`, '+919800000001');
    const stranger = await shop.signUp('Stranger Lifecycle', `stranger-life-${Date.now()}@example.in`, '+919800000002');
    const guest = newBrowser();
    const mine = await createOrder(guest, [{ productId, quantity: 1 }]);
    expect(mine.status).toBe(201);
    for (const other of [newBrowser(), newBrowser(stranger.token), newBrowser(member.token)]) {
      expect((await cancel(other, mine.body.id)).status).toBe(403);
      expect((await dialogOpened(other, mine.body.id)).status).toBe(403);
    }
    // a browser that never had a cookie (every request a new guest) is no one's owner either
    const cookieless = await shop.api('POST', '/api/payment/cancel', { body: { razorpay_order_id: mine.body.id } });
    expect(cookieless.status).toBe(403);
    expect((await cancel(newBrowser(), 'order_doesnotexist')).status).toBe(404);
    expect(await countOf(mine.body.id, 'PaymentOrderExpired')).toBe(0);
    expect(await countOf(mine.body.id, 'PaymentDialogOpened')).toBe(0);
    expect(await shownStock(productId)).toBe(0);
    expect(await holdsPlace(mine.body.id)).toBe(true);

    // a signed-in buyer's checkout is theirs from any browser
    const memberBrowser = newBrowser(member.token);
    const theirs = await createOrder(memberBrowser, [{ productId, quantity: 1 }], { customerEmail: 'x@example.in' });
    expect(theirs.status).toBe(409); // sold out to the guest above
    expect((await cancel(guest, mine.body.id)).body.status).toBe('cancelled');
    const placed = await createOrder(memberBrowser, [{ productId, quantity: 1 }]);
    expect(placed.status).toBe(201);
    expect((await cancel(newBrowser(member.token), placed.body.id)).body.status).toBe('cancelled');
  });
});

describe('issue 27: a payment completing while its checkout is cancelled', () => {
  it('cancel and pay at the same moment, 36 times: each paid checkout is exactly one order or exactly one refund', async () => {
    const RUNS = 36;
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const productId = await product(`Race Kurta ${i}`, 1);
        const buyer = newBrowser();
        const created = await createOrder(buyer, [{ productId, quantity: 1 }]);
        expect(created.status).toBe(201);
        expect((await dialogOpened(buyer, created.body.id)).status).toBe(200);
        // Three orders of events: the payment completes after the cancel answered (its stock must be held
        // again), at the same moment, or just before the cancel asks the provider. In half the runs another
        // shopper takes the unit the moment the cancel gives it back, racing the payment for it.
        const rival = i % 2 === 0 ? newBrowser() : null;
        const payAndVerify = () => pay(created.body.id).then((p) => verify(buyer, p));
        let cancelling: ReturnType<typeof cancel>;
        let verifying: ReturnType<typeof verify>;
        if (i % 3 === 0) {
          cancelling = cancel(buyer, created.body.id);
          verifying = cancelling.then(payAndVerify);
        } else if (i % 3 === 1) {
          cancelling = cancel(buyer, created.body.id);
          verifying = payAndVerify();
        } else {
          const paying = pay(created.body.id);
          cancelling = paying.then(() => cancel(buyer, created.body.id));
          verifying = paying.then((p) => verify(buyer, p));
        }
        const [cancelled, verified, rivalAnswer] = await Promise.all([
          cancelling,
          verifying,
          rival ? cancelling.then(() => createOrder(rival, [{ productId, quantity: 1 }])) : Promise.resolve(null),
        ]);
        return { run: i, orderId: created.body.id, productId, cancelled, verified, rivalAnswer };
      }),
    );
    // The sandbox's payment.captured / order.paid webhooks and the settlement run after the answers.
    const outcomes = await Promise.all(
      runs.map(async (r) => {
        await waitUntil(async () => {
          const o = await outcomeOf(r.orderId);
          return o.orders + o.refunded >= 1;
        }, `checkout ${r.orderId} to end in an order or a refund`);
        return { ...r, ...(await outcomeOf(r.orderId)) };
      }),
    );
    // Late reports (webhooks) must not add a second outcome: wait for every delivery of these orders' events.
    await waitUntil(async () => {
      const r = await shop.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM checkout.webhook_events WHERE processed_at IS NULL`,
      );
      return r.rows[0]!.n === 0;
    }, 'webhook deliveries to finish');
    let orders = 0;
    let refunds = 0;
    for (const o of outcomes) {
      const now = await outcomeOf(o.orderId);
      expect(now.orders + now.refundsDue, `checkout ${o.orderId}`).toBe(1);
      expect(now.refunded).toBe(now.refundsDue);
      if (now.orders) orders++;
      else refunds++;
      // what the browser was told agrees with the end
      if (now.orders) expect(o.verified.status, JSON.stringify(o.verified.body)).toBeLessThan(300);
      else expect(o.verified.status).toBe(409);
      // One unit: never sold twice. A placed order's sale is committed (by the settlement consumer), and
      // then no other unit was sold.
      const ledger = async () => `run ${o.run}: ${await stockLedger(o.productId)} / ${await eventsOf(o.orderId)}`;
      await waitUntil(
        async () => (await unitsCommitted(o.productId)) === now.orders,
        `the sale of run ${o.run} to be committed`,
      );
      expect(await unitsCommitted(o.productId), await ledger()).toBe(now.orders);
      // a rival served while the payment was refunded holds the unit the buyer gave back
      if (o.rivalAnswer?.status === 201 && !now.orders) expect(await countOf(o.orderId, 'PaymentOrderRevived')).toBe(0);
    }
    const cancelSawPaid = outcomes.filter((o) => o.cancelled.body.status === 'paid').length;
    const rivalsServed = outcomes.filter((o) => o.rivalAnswer?.status === 201).length;
    console.info(
      `cancel/pay race: ${RUNS} runs -> ${orders} orders, ${refunds} refunds, 0 both, 0 neither; cancel answered 'paid' ${cancelSawPaid} times; rivals served ${rivalsServed}/${RUNS / 2}`,
    );
    expect(orders + refunds).toBe(RUNS);
  });
});

describe('issue 27 defect 2: a new checkout replaces the buyer’s unpaid one', () => {
  it('the same buyer may take the whole stock again at once; paying the replaced checkout later is refunded when its stock is gone', async () => {
    const productId = await product('Replace Kurta', 2);
    const buyer = newBrowser();
    const older = await createOrder(buyer, [{ productId, quantity: 2 }]);
    expect(older.status).toBe(201);
    // refresh / back button / second tab: a new create-order for the whole stock
    const newer = await createOrder(buyer, [{ productId, quantity: 2 }]);
    expect(newer.status).toBe(201);
    expect(await countOf(older.body.id, 'PaymentOrderExpired')).toBe(1);
    // the old dialog still pays: its stock is held by the newer checkout, so it is refunded, never both
    const late = await verify(buyer, await pay(older.body.id));
    expect(late.status).toBe(409);
    // the same words whether verify or the provider's webhook reported the payment first: it did not expire
    expect(late.body).toEqual({
      message:
        'This payment could not be accepted; it will be refunded. If you still want the items, please place the order again.',
    });
    await waitUntil(async () => (await outcomeOf(older.body.id)).refunded === 1, 'the late payment to be refunded');
    expect(await outcomeOf(older.body.id)).toEqual({ orders: 0, refundsDue: 1, refunded: 1 });
    // the newer checkout is still the buyer's and pays normally
    const placed = await verify(buyer, await pay(newer.body.id));
    expect(placed.status).toBe(200);
    expect(await shownStock(productId)).toBe(0);
  });

  it('paying the replaced checkout later places it when its stock is still there, exactly once (verify and webhooks)', async () => {
    const productId = await product('Replace Shirt', 5);
    const buyer = newBrowser();
    const older = await createOrder(buyer, [{ productId, quantity: 2 }]);
    expect(older.status).toBe(201);
    const newer = await createOrder(buyer, [{ productId, quantity: 1 }]); // a changed cart
    expect(newer.status).toBe(201);
    // The newer checkout's unit is held until its short hold lapses (its dialog never opens; a loaded box can take
    // longer than that to get through this test): the stock shown, `sold` units sold, is 5 - sold - that unit.
    const shows = (sold: number, what: string) =>
      waitUntil(async () => {
        const newerHeld = (await countOf(newer.body.id, 'PaymentOrderExpired')) === 0 ? 1 : 0;
        return (await shownStock(productId)) === 5 - sold - newerHeld;
      }, what);
    await shows(0, 'the older hold back before the newer one was taken: 4 left');
    const payment = await pay(older.body.id);
    const [a, b] = await Promise.all([verify(buyer, payment), verify(buyer, payment)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.orderNumber).toBe(b.body.orderNumber);
    await waitUntil(async () => (await ordersOf(older.body.id)) === 1, 'the revived order');
    await shows(2, 'stock: 2 sold, 1 held while the newer checkout holds it, the rest left');
    const end = await outcomeOf(older.body.id);
    expect(end).toEqual({ orders: 1, refundsDue: 0, refunded: 0 });
    expect(await countOf(older.body.id, 'PaymentOrderRevived')).toBe(1);
  });
});

describe('issue 27 defect 4: the amount-only flow never keeps money without an order', () => {
  const openOrder = (b: Buyer, amount: number) =>
    call<Created>(b, '/api/payment/create-order', { amount, currency: 'INR', receipt: `rcpt_open_${b.n}` });

  it('paid and never verified (the browser closed): refunded when the order lapses', async () => {
    const buyer = newBrowser();
    const open = await openOrder(buyer, 549);
    expect(open.status).toBe(201);
    await pay(open.body.id);
    await waitUntil(
      async () => (await outcomeOf(open.body.id)).refunded === 1,
      'the paid open order to be refunded at expiry',
      (RESERVATION_TTL_S + 15) * 1000,
    );
    expect(await outcomeOf(open.body.id)).toEqual({ orders: 0, refundsDue: 1, refunded: 1 });
    const reason = await shop.db.pool.query(
      `SELECT data->>'reason' AS reason FROM checkout.events WHERE stream_id = $1 AND type = 'RefundDue'`,
      [paymentStreamId(open.body.id)],
    );
    expect(reason.rows[0].reason).toBe('never_placed');
  });

  it('a failed attempt does not end an amount-only order: the retry in the same dialog is placed', async () => {
    const productId = await product('Retry Open Tee', 5, '549');
    const buyer = newBrowser();
    const charges = await shop.api<{ deliveryCharge: number; shippingCharge: number }>(
      'POST',
      '/api/delivery/calculate',
      { body: { orderTotal: 549 } },
    );
    const open = await openOrder(buyer, 549 + charges.body.deliveryCharge + charges.body.shippingCharge);
    expect(open.status).toBe(201);
    await failPayment(open.body.id);
    await waitUntil(async () => (await countOf(open.body.id, 'PaymentFailed')) === 1, 'the payment.failed webhook');
    expect((await cancel(buyer, open.body.id)).body.status).toBe('cancelled');
    const cart = guestOrder('r', buyer.n, [{ productId, quantity: 1 }]).orderData;
    const placed = await verify(buyer, { ...(await pay(open.body.id)), orderData: cart });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(await outcomeOf(open.body.id)).toMatchObject({ refundsDue: 0 });
  });

  it('verify refused (bad e-mail, too many units, empty cart): refunded when the order lapses', async () => {
    const productId = await product('Open Flow Tee', 50, '549');
    const buyer = newBrowser();
    const open = await openOrder(buyer, 549);
    expect(open.status).toBe(201);
    const payment = await pay(open.body.id);
    const cart = guestOrder('r', buyer.n, [{ productId, quantity: 1 }]).orderData;
    for (const orderData of [
      { ...cart, customerEmail: 'not-an-email' },
      { ...cart, items: [{ productId, quantity: 11, size: null, color: null }] },
      { ...cart, items: [] },
    ]) {
      expect((await verify(buyer, { ...payment, orderData })).status).toBe(400);
    }
    await waitUntil(
      async () => (await outcomeOf(open.body.id)).refunded === 1,
      'the refused payment to be refunded at expiry',
      (RESERVATION_TTL_S + 15) * 1000,
    );
    expect(await outcomeOf(open.body.id)).toEqual({ orders: 0, refundsDue: 1, refunded: 1 });
  });
});

describe('issue 27 defect 5: what one unpaid checkout may hold, and for how long', () => {
  it('more than 20 units or more than 10 products in one checkout is refused with 400 and holds nothing', async () => {
    const ids = await Promise.all(Array.from({ length: 11 }, (_, i) => product(`Wide Tee ${i}`, 50)));
    const buyer = newBrowser();
    const tooMany = await createOrder(
      buyer,
      ids.slice(0, 3).map((productId) => ({ productId, quantity: 7 })),
    );
    expect(tooMany).toMatchObject({
      status: 400,
      body: { message: 'At most 20 items per order: this order asks for 21' },
    });
    const tooWide = await createOrder(
      buyer,
      ids.map((productId) => ({ productId, quantity: 1 })),
    );
    expect(tooWide).toMatchObject({
      status: 400,
      body: { message: 'At most 10 different products per order: this order has 11' },
    });
    for (const id of ids) expect(await shownStock(id)).toBe(50);
    expect(
      (
        await createOrder(
          buyer,
          ids.slice(0, 10).map((productId) => ({ productId, quantity: 2 })),
        )
      ).status,
    ).toBe(201);
  });

  it('a hold lapses after HOLD_BEFORE_DIALOG_SECONDS unless its dialog opened; then it lasts RESERVATION_TTL_SECONDS', async () => {
    const productId = await product('Dialog Kurta', 2);
    const idle = newBrowser();
    const paying = newBrowser();
    const idleOrder = await createOrder(idle, [{ productId, quantity: 1 }]);
    const payingOrder = await createOrder(paying, [{ productId, quantity: 1 }]);
    expect(idleOrder.status).toBe(201);
    expect(payingOrder.status).toBe(201);
    const opened = await dialogOpened(paying, payingOrder.body.id);
    expect(opened.status).toBe(200);
    const createdAt = Date.now();
    // the idle checkout's unit comes back after the short hold (plus a sweep)
    await waitUntil(
      async () => (await countOf(idleOrder.body.id, 'PaymentOrderExpired')) === 1,
      'the idle checkout to lapse',
      (HOLD_BEFORE_DIALOG_S + 5) * 1000,
    );
    expect(Date.now() - createdAt).toBeLessThan(RESERVATION_TTL_S * 1000);
    await stockShows(productId, 1, 5000);
    // the paying one is still held, and pays normally within its full hold
    expect(await countOf(payingOrder.body.id, 'PaymentOrderExpired')).toBe(0);
    expect(await holdsPlace(payingOrder.body.id)).toBe(true);
    // ... and lapses only after the full hold
    await waitUntil(
      async () => (await countOf(payingOrder.body.id, 'PaymentOrderExpired')) === 1,
      'the opened checkout to lapse after the full hold',
      (RESERVATION_TTL_S + 5) * 1000,
    );
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual((RESERVATION_TTL_S - HOLD_BEFORE_DIALOG_S) * 1000 - 500);
    await stockShows(productId, 2, 5000);
  });
});

describe('issue 27 defect 6: a coupon that cannot be used refuses before any stock is held', () => {
  const stockEvents = async (productId: string, type: string) =>
    (
      await shop.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM catalog.events WHERE stream_id LIKE $1 AND type = $2`,
        [`stock-${productId}%`, type],
      )
    ).rows[0]!.n;

  it('a used-up coupon is refused with its own message and holds no stock', async () => {
    const productId = await product('Coupon First Kurta', 10);
    expect(
      (await createTenPercentCoupon(shop.api, admin, { code: 'FIRST3', usageLimit: 3, isActive: true })).status,
    ).toBe(201);
    for (let i = 0; i < 3; i++)
      expect((await createOrder(newBrowser(), [{ productId, quantity: 1 }], { couponCode: 'FIRST3' })).status).toBe(
        201,
      );
    const loser = await createOrder(newBrowser(), [{ productId, quantity: 1 }], { couponCode: 'FIRST3' });
    expect(loser).toMatchObject({ status: 400, body: { message: 'Coupon usage limit reached' } });
    expect(await stockEvents(productId, 'StockReserved')).toBe(3);
    expect(await stockEvents(productId, 'StockReleased')).toBe(0);
  });

  it('20 buyers race for a 3-use coupon on a 10-unit product: 3 win, and no loser is told the stock is gone', async () => {
    const productId = await product('Coupon Race Kurta', 10);
    expect(
      (await createTenPercentCoupon(shop.api, admin, { code: 'RACE3', usageLimit: 3, isActive: true })).status,
    ).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        createOrder(newBrowser(), [{ productId, quantity: 1 }], { couponCode: 'RACE3' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    const messages = answers.filter((a) => a.status !== 201).map((a) => a.body.message);
    console.info(`coupon race: 20 buyers, 3 uses, 10 units -> ${JSON.stringify(messages)}`);
    for (const m of messages) expect(m).toBe('Coupon usage limit reached');
    await stockShows(productId, 7, 2000);
  });
});
