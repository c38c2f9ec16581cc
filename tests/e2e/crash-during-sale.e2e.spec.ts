import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../services/shared/src/db/free-port.ts';
import { httpClient } from '@shop/test-support/http';
import { fromBuyer } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';
import { crash, embeddedDatabaseUrl, useShopDataDir, waitHealthy } from './support/shop-process.ts';
import { expectLedgerBalanced, type StockLedger } from './support/stock-ledger.ts';
import { holdBackstopMs } from '../../services/catalog/src/inventory/hold-expiry.ts';
import { livePlaceBackstopMs } from '../../services/checkout/src/buyer-limits/live-checkouts.ts';
import {
  adminToken,
  confirmedBuyers,
  type CouponView,
  crashSaleBuy,
  createSaleCoupon,
  DEFAULT_ADMIN,
  expectEachOrderOnce,
  openSale,
  type OrderView,
  refundedProviderOrders,
  refundsDueByProviderOrder,
  type PayResponse,
  type SaleBuyer,
  saleOrder,
  saleProduct,
} from './support/sale.ts';

/**
 * Issues 15 and 11: `kill -9` of the shop's node process (only: its embedded Postgres lives on) in the middle
 * of a 200-buyer sale of 50 units, some buyers using a coupon with a usage limit, then a start with
 * RESERVATION_TTL_SECONDS=5 and no manual step. The shop comes back; at every check after the restart the
 * product's stock streams balance (available + held + sold = stock, folded from catalog.events); once the
 * holds have run out (the sweep, and the catalog's backstop for holds no checkout recorded), nothing is held
 * and available + sold = stock (sold = units in placed orders); every paid order exists exactly once; a
 * payment the sandbox took is an order or a recorded refund, never lost; the coupon's used count is the
 * number of placed orders that carry it. Issue 27: every fifth buyer uses the seeds' amount-only flow
 * (create-order with the amount only, the cart sent with verify); across the crash, each payment of either flow
 * ends as exactly one order or exactly one refund (a paid amount-only order whose verify the crash cut off is
 * refunded when it lapses).
 */
const STOCK = 50;
const BUYERS = 200;
/** Buyers in flight at once (a crowd, not all 200 at one instant, so the crash lands mid-sale). */
const CROWD = 50;
/**
 * The crash comes the moment this buyer's verify is on its way (so it, at least, is cut off mid-request), or the
 * first verify after it once a coupon buyer's order is confirmed: on a loaded box the coupon buyers (whose
 * create-orders queue on the coupon's one stream) can all still be in create-order at the 20th verify, and the
 * sale must have coupon orders for the check that the coupon's uses match them to mean anything.
 */
const CRASH_AT_VERIFY = 20;
/** The hold in the first run: long enough that no payer's hold runs out before they pay. */
const FIRST_RUN_TTL_SECONDS = 20;
/** Every third buyer applies it; fewer uses than such buyers, so the limit is reached while holds are live. */
const COUPON = { code: 'CRASHSALE10', usageLimit: 10 };
/** The seeds' amount-only flow: create-order with the amount only, the cart comes with verify. */
const amountOnly = (n: number) => n % 5 === 2;
const usesCoupon = (n: number) => n % 3 === 0 && !amountOnly(n);

const shops = useShopDataDir('shop-sale-crash-');

describe('kill -9 of the shop during a sale', () => {
  it('comes back on its own; the stock streams balance at every check; after the holds run out nothing is held, available + sold = stock, every paid order exists exactly once, and coupon uses match the orders', async () => {
    const port = await freePort();
    const shop = await shops.spawn({ port, env: { RESERVATION_TTL_SECONDS: String(FIRST_RUN_TTL_SECONDS) } });
    await waitHealthy(shop);
    const base = shop.base;
    const api = httpClient(base);
    const sale = await openSale(api, DEFAULT_ADMIN, saleProduct('Crash Sale Kurta', STOCK));
    const { productId } = sale;
    await createSaleCoupon(api, sale.token, { ...COUPON, description: 'crash sale' });
    // What one unit costs with delivery: the amount an amount-only buyer's browser asks for.
    const charges = await api<{ deliveryCharge: number; shippingCharge: number }>('POST', '/api/delivery/calculate', {
      body: { orderTotal: 999 },
    });
    expect(charges.status).toBe(200);
    const unitTotal = 999 + charges.body.deliveryCharge + charges.body.shippingCharge;

    // The sale: buyers come in a crowd of CROWD at a time; three in four who get a hold pay and verify.
    const buyers: SaleBuyer[] = [];
    let verifies = 0;
    let verifiedCount = 0;
    let couponConfirmed = 0;
    let crashed: Promise<void> | undefined;
    const buy = async (n: number) => {
      const b: SaleBuyer = { n };
      buyers.push(b);
      const order = saleOrder(`sale_${n}`, n, productId, {
        couponCode: usesCoupon(n) ? COUPON.code : null,
        totalAmount: 0,
        discountAmount: 0,
        shippingCharge: 0,
        deliveryCharge: 0,
      });
      const crashAtVerify = () => {
        // kill -9 of the node process only
        if (++verifies >= CRASH_AT_VERIFY && couponConfirmed > 0 && !crashed) crashed = crash(shop);
      };
      const v = amountOnly(n)
        ? await crashSaleBuy(
            base,
            b,
            { amount: unitTotal, currency: 'INR', receipt: `sale_${n}` },
            fromBuyer(n),
            fromBuyer(10_000 + n),
            crashAtVerify,
            (paid: PayResponse) => ({ ...paid, orderData: order.orderData }),
          )
        : await crashSaleBuy(base, b, order, fromBuyer(n), fromBuyer(10_000 + n), crashAtVerify);
      if (v && v !== 'cut' && (v.status === 200 || v.status === 202) && v.body.success === true) {
        verifiedCount++;
        if (usesCoupon(n)) couponConfirmed++;
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CROWD }, async () => {
        // no new buyer once the shop is down: those in flight are the ones the crash cuts off
        while (next < BUYERS && !crashed) await buy(next++);
      }),
    );
    expect(crashed, 'the crash happened during the sale (after a coupon buyer was confirmed)').toBeDefined();
    await crashed;
    const crashedAt = Date.now();
    const cut = buyers.filter((b) => b.createStatus === 'cut' || b.paid === 'cut' || b.verified?.status === 'cut');
    expect(cut.length, 'requests were in flight when the shop died').toBeGreaterThan(0);

    // Start again on the same data, with a short hold, and no manual step.
    const again = await shops.spawn({ port, env: { RESERVATION_TTL_SECONDS: '5' } });
    await waitHealthy(again);
    const api2 = httpClient(again.base);
    const token = await adminToken(api2, DEFAULT_ADMIN);

    const sold = (list: OrderView[]) =>
      list
        .flatMap((o) => o.items)
        .filter((i) => i.Product.id === productId)
        .reduce((sum, i) => sum + i.orderedQuantity, 0);
    const adminOrders = async () => (await api2<OrderView[]>('GET', '/api/orders/admin/all', { token })).body;
    const paidBuyers = buyers.filter((x) => typeof x.paid === 'object');
    expect(paidBuyers.length, 'payments were taken before the crash').toBeGreaterThan(0);
    const db = new pg.Client({ connectionString: embeddedDatabaseUrl(shops.pgDir) });
    await db.connect();
    // At every check from here on, the product's stock streams balance.
    let ledger: StockLedger | undefined;
    let checks = 0;
    const balanced = async (when: string) => {
      checks++;
      ledger = await expectLedgerBalanced(db, productId, STOCK, when);
      return ledger;
    };
    try {
      await balanced('just after the restart');
      // A payment the sandbox took (it answered) becomes an order, or a refund the shop recorded: never lost.
      // The holds of the first run run out FIRST_RUN_TTL_SECONDS after they were taken; the sweep then
      // settles each order (paid after all -> recorded -> an order; else expired and released).
      let orders: OrderView[] = [];
      let missing: number[] = [];
      await waitUntil(
        async () => {
          await balanced('while payments settle');
          orders = await adminOrders();
          const placed = new Set(orders.map((o) => o.razorpayOrderId));
          const refunds = await refundedProviderOrders(db);
          const refundsDue = await refundsDueByProviderOrder(db);
          missing = paidBuyers
            .filter((b) => !placed.has(b.created!) && !refunds.has(b.created!) && !refundsDue.has(b.created!))
            .map((b) => b.n);
          return missing.length === 0;
        },
        `every sandbox payment (${paidBuyers.length}) to be an order or a refund`,
        FIRST_RUN_TTL_SECONDS * 1000 + 60_000,
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}; buyers still without either: ${missing.join(', ')}`, {
          cause: err,
        });
      });

      // Every paid order exists exactly once.
      expectEachOrderOnce(orders, confirmedBuyers(buyers));
      // Each payment, of either flow, is exactly one order or exactly one refund: never both, never neither.
      const refundsDue = await refundsDueByProviderOrder(db);
      const ends = { cart: { orders: 0, refunds: 0 }, amountOnly: { orders: 0, refunds: 0 } };
      for (const b of paidBuyers) {
        const placedOrders = orders.filter((o) => o.razorpayOrderId === b.created).length;
        const refunds = refundsDue.get(b.created!) ?? 0;
        expect(placedOrders + refunds, `buyer ${b.n} (${amountOnly(b.n) ? 'amount only' : 'with cart'})`).toBe(1);
        const flow = amountOnly(b.n) ? ends.amountOnly : ends.cart;
        if (placedOrders) flow.orders++;
        else flow.refunds++;
      }
      console.log(`crash sale: payments ended as ${JSON.stringify(ends)}`);
      expect(ends.amountOnly.orders + ends.amountOnly.refunds, 'amount-only buyers paid').toBeGreaterThan(0);

      // After the hold expiry, available + sold = stock (sold = units in placed orders), and nothing is
      // held: holds of orders never paid came back through the sweep; a hold no checkout recorded (a
      // create-order cut off between the catalog's StockReserved and checkout's PaymentOrderCreated) through
      // the catalog's backstop, 2 x the first run's hold + 30 s after it was taken.
      let last = { available: -1, sold: -1, held: -1, soldInStreams: -1 };
      await waitUntil(
        async () => {
          const product = await api2<{ quantity: number }>('GET', `/api/products/${productId}`);
          const l = await balanced('while holds run out');
          last = {
            available: product.body.quantity,
            sold: sold(await adminOrders()),
            held: l.held,
            soldInStreams: l.sold,
          };
          return last.available + last.sold === STOCK && l.held === 0 && l.sold === last.sold;
        },
        `available + sold = ${STOCK}, nothing held, and the streams' sales = the orders' units after the holds ran out`,
        Math.max(0, crashedAt + holdBackstopMs(FIRST_RUN_TTL_SECONDS) - Date.now()) + 30_000,
      ).catch(async (err: unknown) => {
        throw new Error(
          `${(err as Error).message}; last seen ${JSON.stringify(last)}; ${await openHolds(db, productId)}`,
          {
            cause: err,
          },
        );
      });
      expect(last.sold).toBeGreaterThanOrEqual(verifiedCount);

      // The coupon's uses are the placed orders that carry it (none still reserved: every hold settled).
      let couponSeen: CouponView | undefined;
      let couponOrders = -1;
      await waitUntil(
        async () => {
          await balanced('while the coupon settles');
          const list = await api2<CouponView[]>('GET', '/api/coupons', { token });
          couponSeen = list.body.find((c) => c.code === COUPON.code);
          couponOrders = (await adminOrders()).filter((o) => o.couponCode === COUPON.code).length;
          return couponSeen?.reservedCount === 0 && couponSeen.usedCount === couponOrders;
        },
        `the coupon's used count to equal the placed orders carrying it`,
        // A checkout killed between its coupon hold and its payment order is settled by the orphan-checkouts job
        // only once its live-checkout place lapses (its backstop), which is later than the stock's.
        Math.max(0, crashedAt + livePlaceBackstopMs(FIRST_RUN_TTL_SECONDS * 1000) - Date.now()) + 30_000,
      ).catch(async (err: unknown) => {
        throw new Error(
          `${(err as Error).message}; coupon ${JSON.stringify(couponSeen)}, orders with it ${couponOrders}; ${await couponUses(db)}`,
          {
            cause: err,
          },
        );
      });
      console.log(
        `crash sale: ${couponOrders} placed orders carry the coupon, ${couponConfirmed} confirmed before the crash`,
      );
      expect(couponOrders, 'some placed orders used the coupon').toBeGreaterThan(0);
      expect(couponSeen!.usedCount).toBeLessThanOrEqual(COUPON.usageLimit);
      expect(checks, 'the ledger was checked at every poll').toBeGreaterThan(3);
    } finally {
      await db.end();
    }
  });
});

/** For a failure message: the product's holds never released nor sold, and which checkout knows nothing of. */
async function openHolds(db: pg.Client, productId: string): Promise<string> {
  const { rows } = await db.query<{ n: number; unknown_to_checkout: number }>(
    `WITH holds AS (
       SELECT split_part(data->>'reservationId', '#', 1) AS reservation, array_agg(type) AS types
       FROM catalog.events WHERE stream_id = $1 AND data->>'reservationId' IS NOT NULL GROUP BY 1)
     SELECT count(*)::int AS n, count(*) FILTER (WHERE po.razorpay_order_id IS NULL)::int AS unknown_to_checkout
     FROM holds LEFT JOIN checkout.payment_orders po ON po.reservation_id = holds.reservation
     WHERE NOT ('StockReleased' = ANY(types) OR 'StockCommitted' = ANY(types))`,
    [`stock-${productId}`],
  );
  return `${rows[0]!.n} holds still open, ${rows[0]!.unknown_to_checkout} of them without a checkout payment order (a create-order cut off between the catalog's StockReserved and checkout's PaymentOrderCreated)`;
}

/** For a failure message: each coupon use's events, and whether checkout recorded a payment order for it. */
async function couponUses(db: pg.Client): Promise<string> {
  const { rows } = await db.query<{ reservation: string; types: string[]; payment: string[] | null }>(
    `SELECT r.reservation, r.types,
            (SELECT array_agg(p.type ORDER BY p.global_position) FROM checkout.events p
              WHERE p.stream_id LIKE 'payment-%' AND p.data->>'reservationId' = r.reservation) AS payment
       FROM (SELECT e.data->>'reservationId' AS reservation, array_agg(e.type ORDER BY e.global_position) AS types
               FROM checkout.events e WHERE e.type LIKE 'CouponUse%' GROUP BY 1) r`,
  );
  return rows.map((r) => `${r.reservation}: ${r.types.join(',')} / payment ${(r.payment ?? []).join(',')}`).join('; ');
}
