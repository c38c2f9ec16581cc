import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startCrashableDistributed } from '../../scripts/distributed-processes.ts';
import { holdBackstopMs } from '../../services/catalog/src/inventory/hold-expiry.ts';
import { livePlaceBackstopMs } from '../../services/checkout/src/buyer-limits/live-checkouts.ts';
import { startMockKafka } from '@shop/test-support/kafka-broker';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { expectLedgerBalanced, type StockLedger } from './support/stock-ledger.ts';
import {
  confirmedBuyers,
  type CouponView,
  crashSaleBuy,
  createSaleCoupon,
  expectEachOrderOnce,
  openSale,
  type OrderView,
  progressLog,
  refundedProviderOrders,
  type SaleBuyer,
  saleOrder,
  saleProduct,
  saleShopEnv,
  saleStores,
  stopsAfterAll,
} from './support/sale.ts';
import { freePortRun } from '@shop/test-support/port-run';
import { fromBuyer } from '@shop/test-support/purchase';

/**
 * Issue 11, distributed mode: gateway and the four services as separate processes over Kafka. One sale in
 * rounds; in each round `kill -9` of one process (catalog, checkout, order, gateway, accounts in turn) lands
 * while requests are in flight, and that process is started again on the same port. After each restart and at
 * every poll after it, the product's stock streams balance (available + held + sold = stock). At the end:
 * every order the provider (the sandbox) holds as paid is exactly one placed order (reconciliation asks the
 * provider for those whose verify was cut off), nothing is held any more (unpaid holds came back through the
 * sweep, holds no checkout recorded through the catalog's backstop), the streams' sales are the placed
 * orders' units, and the coupon's used count is the number of placed orders that carry it.
 *
 * Own Redis and Kafka mock: BullMQ queues and consumer groups must not be shared with another shop.
 */
const STOCK = 200; // ample: no buyer is refused for stock, so every payment must become an order
const TTL_SECONDS = 6;
/**
 * A restarted service answers 503 until its Kafka consumers have joined their groups, which waits out the
 * killed member's session (30 s): about a minute. The sale needs the gateway, checkout and the catalog, so
 * the next round waits for those; the order service and accounts (killed first) come back while the sale
 * goes on, and the gateway (whose health is its services') goes last.
 */
const VICTIMS = ['order', 'accounts', 'catalog', 'checkout', 'gateway'] as const;
const SALE_PATH = new Set<string>(['catalog', 'checkout', 'gateway']);
/** Buyers in flight at once. */
const CROWD = 8;
/** In each round, the kill comes the moment this many verifies of the round are on their way. */
const KILL_AT_VERIFY = 6;
const COUPON = { code: 'DISTSALE10', usageLimit: 12 };
const usesCoupon = (n: number) => n % 3 === 0;
const ADMIN = { email: 'crash-admin@shop.local', password: 'crash-admin-pass' };

const stops = stopsAfterAll();

interface Buyer extends SaleBuyer {
  round: number;
}

/** Ports below Linux's ephemeral range (see distributed-kafka.e2e.spec.ts). */

describe('distributed mode: kill -9 of each process in turn during a sale', () => {
  it('after every restart the stock balances; paid provider orders end as exactly one order; holds come back; coupon uses match', async () => {
    const t0 = Date.now();
    const progress = progressLog('crash-sale', t0);
    const { db, env } = await saleStores(stops, 'dist-crash');
    const kafka = await startMockKafka();
    stops.push(kafka.stop);
    const ports = await freePortRun();
    const shop = await startCrashableDistributed({
      env: saleShopEnv(ADMIN, {
        ...env,
        KAFKA_BROKERS: kafka.brokers,
        JWT_SECRET: 'distributed-crash-e2e-secret',
        RESERVATION_TTL_SECONDS: String(TTL_SECONDS),
      }),
      ...ports,
    });
    stops.push(() => shop.stop());
    const base = `http://127.0.0.1:${ports.gatewayPort}`;
    const api = httpClient(base);
    const startedIn = Date.now() - t0;
    progress('shop started');

    const { token, productId } = await openSale(api, ADMIN, saleProduct('Distributed Crash Kurta', STOCK));
    await createSaleCoupon(api, token, { ...COUPON, description: 'distributed crash sale' });

    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    stops.push(() => pool.end());
    let checks = 0;
    let ledger: StockLedger | undefined;
    const balanced = async (when: string) => {
      checks++;
      ledger = await expectLedgerBalanced(pool, productId, STOCK, when);
      return ledger;
    };

    // The sale, in rounds: buyers come CROWD at a time; three in four who get a hold pay and verify.
    const buyers: Buyer[] = [];
    let next = 0;
    /** Per round: buyers, requests cut off (connection lost) and answered 5xx (a service down), restart time. */
    const rounds: Array<{ victim: string; buyers: number; cut: number; failed5xx: number; restartMs?: number }> = [];
    const restarting: Array<Promise<void>> = [];
    for (const [round, victim] of VICTIMS.entries()) {
      let verifies = 0;
      let killed: Promise<void> | undefined;
      const buy = async (n: number) => {
        const b: Buyer = { n, round };
        buyers.push(b);
        const order = saleOrder(`dsale_${n}`, n, productId, {
          address: '5 Residency Road, Bengaluru',
          pincode: '560025',
          customerPhone: '+919800000001',
          customerEmail: `dbuyer${n}@example.in`,
          couponCode: usesCoupon(n) ? COUPON.code : null,
        });
        await crashSaleBuy(base, b, order, fromBuyer(n), fromBuyer(10_000 + n), () => {
          if (++verifies === KILL_AT_VERIFY) killed = shop.kill9(victim);
        });
      };
      const first = next;
      await Promise.all(
        Array.from({ length: CROWD }, async () => {
          while (!killed && next - first < 200) await buy(next++);
        }),
      );
      expect(killed, `the kill of ${victim} happened during round ${round}`).toBeDefined();
      await killed;
      progress(`round ${round}: ${victim} killed (${next - first} buyers)`);
      const r0 = Date.now();
      const entry: (typeof rounds)[number] = {
        victim,
        buyers: next - first,
        cut: buyers.filter(
          (b) => b.round === round && (b.createStatus === 'cut' || b.paid === 'cut' || b.verified?.status === 'cut'),
        ).length,
        failed5xx: buyers.filter(
          (b) =>
            b.round === round &&
            ((typeof b.createStatus === 'number' && b.createStatus >= 500) ||
              (typeof b.verified?.status === 'number' && b.verified.status >= 500)),
        ).length,
      };
      rounds.push(entry);
      const back = shop.restart(victim).then(async () => {
        entry.restartMs = Date.now() - r0;
        progress(`round ${round}: ${victim} healthy again`);
        await balanced(`just after the restart of ${victim}`);
      });
      if (SALE_PATH.has(victim)) await back;
      else restarting.push(back);
    }
    await Promise.all(restarting);
    const saleDone = Date.now();
    progress('sale done');

    const adminOrders = async () => {
      const r = await api<OrderView[]>('GET', '/api/orders/admin/all', { token });
      if (r.status !== 200) throw new Error(`admin orders: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const paidAtProvider = async () =>
      (await pool.query<{ id: string }>(`SELECT id FROM razorpay_sandbox.orders WHERE status = 'paid'`)).rows.map(
        (r) => r.id,
      );

    // Every order the provider holds as paid becomes exactly one order (verify, webhook or the sweep asking
    // the provider); stock is ample, so none may end as a refund instead.
    let orders: OrderView[] = [];
    let missing: string[] = [];
    let paid: string[] = [];
    await waitUntil(
      async () => {
        await balanced('while payments settle');
        orders = await adminOrders();
        const placed = new Set(orders.map((o) => o.razorpayOrderId));
        paid = await paidAtProvider();
        missing = paid.filter((id) => !placed.has(id));
        return missing.length === 0;
      },
      'every order paid at the provider to be a placed order',
      120_000,
    ).catch(async (err: unknown) => {
      const { rows } = await pool.query(
        `SELECT data->>'razorpayOrderId' AS id, type, data->>'reason' AS reason FROM checkout.events
          WHERE data->>'razorpayOrderId' = ANY($1) ORDER BY global_position`,
        [missing],
      );
      throw new Error(
        `${(err as Error).message}; ${missing.length} of ${paid.length} without an order: ${missing.join(', ')}; their checkout events: ${JSON.stringify(rows)}`,
        { cause: err },
      );
    });
    progress(`${paid.length} paid provider orders are orders`);
    expectEachOrderOnce(orders, confirmedBuyers(buyers));
    const paidSet = new Set(paid);
    for (const o of orders) expect(paidSet.has(o.razorpayOrderId), `order ${o.orderNumber} was paid`).toBe(true);
    expect([...(await refundedProviderOrders(pool))], 'refunds with ample stock').toEqual([]);

    // Nothing held any more: unpaid holds came back through the sweep; holds no checkout recorded (a
    // create-order cut off between the catalog's StockReserved and checkout's PaymentOrderCreated) through
    // the catalog's backstop. The streams' sales are the placed orders' units, and the product shows the rest.
    const soldInOrders = (list: OrderView[]) =>
      list
        .flatMap((o) => o.items)
        .filter((i) => i.Product.id === productId)
        .reduce((sum, i) => sum + i.orderedQuantity, 0);
    let last = { held: -1, soldInStreams: -1, soldInOrders: -1, shown: -1, liveHolds: [] as string[] };
    await waitUntil(
      async () => {
        const l = await balanced('while holds run out');
        const product = await api<{ quantity: number }>('GET', `/api/products/${productId}`);
        last = {
          held: l.held,
          soldInStreams: l.sold,
          soldInOrders: soldInOrders(await adminOrders()),
          shown: product.body.quantity,
          liveHolds: l.liveHolds.slice(0, 5),
        };
        return l.held === 0 && l.sold === last.soldInOrders && last.shown === l.available;
      },
      'nothing held, sales = placed units, the product showing what is left',
      Math.max(0, saleDone + holdBackstopMs(TTL_SECONDS) - Date.now()) + 30_000,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; last seen ${JSON.stringify(last)}`, { cause: err });
    });

    progress('nothing held');
    // The coupon's uses are the placed orders that carry it.
    let couponSeen: CouponView | undefined;
    let couponOrders = -1;
    await waitUntil(
      async () => {
        await balanced('while the coupon settles');
        couponSeen = (await api<CouponView[]>('GET', '/api/coupons', { token })).body.find(
          (c) => c.code === COUPON.code,
        );
        couponOrders = (await adminOrders()).filter((o) => o.couponCode === COUPON.code).length;
        return couponSeen?.reservedCount === 0 && couponSeen.usedCount === couponOrders;
      },
      "the coupon's used count to equal the placed orders carrying it",
      // A checkout killed between its coupon hold and its payment order is settled by the orphan-checkouts job
      // only once its live-checkout place lapses (its backstop), which is later than the stock's.
      Math.max(0, saleDone + livePlaceBackstopMs(TTL_SECONDS * 1000) - Date.now()) + 30_000,
    ).catch((err: unknown) => {
      throw new Error(
        `${(err as Error).message}; coupon ${JSON.stringify(couponSeen)}, orders with it ${couponOrders}`,
        { cause: err },
      );
    });
    expect(couponOrders, 'some placed orders used the coupon').toBeGreaterThan(0);
    expect(couponSeen!.usedCount).toBeLessThanOrEqual(COUPON.usageLimit);
    expect(orders.length, 'orders were placed').toBeGreaterThan(0);
    expect(checks).toBeGreaterThan(VICTIMS.length);
    console.log(
      `distributed crash sale: started in ${startedIn} ms; rounds ${JSON.stringify(rounds)}; ${buyers.length} buyers, ${paid.length} paid at the provider, ${orders.length} orders, ${couponOrders} with the coupon, ${ledger?.sold} units sold, ${checks} ledger checks; settled ${Date.now() - saleDone} ms after the sale`,
    );
  }, 300_000);
});
