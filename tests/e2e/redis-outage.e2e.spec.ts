import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startTestRedis } from '@shop/test-support/redis-server';
import { waitUntil } from '@shop/test-support/wait-until';
import { expectLedgerBalanced } from './support/stock-ledger.ts';
import {
  type OrderView,
  type PayResponse,
  post,
  progressLog,
  saleProduct,
  saleStores,
  startDistributedSale,
  stopsAfterAll,
} from './support/sale.ts';

/**
 * Issue 13, distributed mode: the shop's Redis (cache, pub/sub, BullMQ jobs) stops for a while and comes
 * back empty (the test's own redis-server, no persistence: the harder case, its keys and job schedules gone).
 *
 * While it is down, the product list, a product's detail and the home page answer 200 with what Postgres
 * holds (the stock a purchase made during the outage took), and buyers keep buying. When it is back, the
 * cache is used again and the jobs resume: a hold left unpaid expires while no sweep can run (the sweeps are
 * BullMQ repeating jobs) and is released by the sweep after Redis returns, the schedules being put back.
 * The consumers here read the Postgres log (no Kafka), so only Redis is out.
 */
const STOCK = 100;
const TTL_SECONDS = 4;
const OUTAGE_MS = 15_000; // longer than the TTL: the unpaid hold expires while Redis is out
const ADMIN = { email: 'redis-outage-admin@shop.local', password: 'redis-outage-pass' };

const stops = stopsAfterAll();

interface ProductView {
  id: string;
  name: string;
  quantity: number;
}

describe('distributed mode: Redis down, then back empty', () => {
  it('reads answer from Postgres and buyers buy while it is down; the cache and the sweeps resume after', async () => {
    const t0 = Date.now();
    const progress = progressLog('redis-outage', t0);
    const stores = await saleStores(stops, 'redis-outage');
    const { db } = stores;
    const { base, api, token, productId } = await startDistributedSale({
      admin: ADMIN,
      env: {
        ...stores.env,
        KAFKA_BROKERS: undefined,
        JWT_SECRET: 'redis-outage-e2e-secret-0123456789',
        RESERVATION_TTL_SECONDS: String(TTL_SECONDS),
      },
      stops,
      progress,
      product: saleProduct('Redis Outage Saree', STOCK, { price: '1499', category: 'Women' }),
    });
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    stops.push(() => pool.end());
    const probe = new Redis(stores.redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    probe.on('error', () => undefined);
    stops.push(async () => probe.disconnect());

    /** The three reads: list, detail and home, each 200; answers the quantity list and detail show. */
    let reads = 0;
    const read = async (when: string) => {
      const list = await api<ProductView[]>('GET', '/api/products');
      const detail = await api<ProductView>('GET', `/api/products/${productId}`);
      const home = await api<{ carousel: unknown[] }>('GET', '/api/home');
      reads += 3;
      expect(list.status, `product list ${when}`).toBe(200);
      expect(detail.status, `product detail ${when}`).toBe(200);
      expect(home.status, `home ${when}`).toBe(200);
      expect(Array.isArray(home.body.carousel), `home ${when}`).toBe(true);
      const listed = list.body.find((p) => p.id === productId);
      return { list: listed?.quantity, detail: detail.body.quantity };
    };
    /** Waits until list and detail both show what the stock streams leave available. */
    const readsShowLedger = async (when: string) => {
      let last = {};
      await waitUntil(
        async () => {
          const l = await expectLedgerBalanced(pool, productId, STOCK, when);
          const shown = await read(when);
          last = { available: l.available, ...shown };
          return shown.list === l.available && shown.detail === l.available;
        },
        `list and detail to show the available stock ${when}`,
        20_000,
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}; last seen ${JSON.stringify(last)}`, { cause: err });
      });
    };

    let n = 0;
    const buy = async (pay: boolean) => {
      const i = n++;
      const c = await post(
        base,
        '/api/payment/create-order',
        {
          amount: 1,
          currency: 'INR',
          receipt: `redis_${i}`,
          orderData: {
            address: '3 MG Road, Pune',
            pincode: '411001',
            customerName: `Redis Buyer ${i}`,
            customerPhone: '+919800000020',
            customerEmail: `redisbuyer${i}@example.in`,
            items: [{ productId, quantity: 1, size: null, color: null }],
            couponCode: null,
          },
        },
        { 'x-forwarded-for': `10.77.0.${i + 1}` },
      );
      if (c === 'cut' || c.status !== 201) throw new Error(`create-order ${i}: ${JSON.stringify(c)}`);
      const id = c.body.id as string;
      if (!pay) return { id, orderNumber: null };
      const paid = await post(base, `/razorpay-sandbox/v1/checkout/orders/${id}/pay`, {});
      if (paid === 'cut' || paid.status !== 200) throw new Error(`sandbox pay ${i}: ${JSON.stringify(paid)}`);
      const v = await post(base, '/api/payment/verify', paid.body as unknown as PayResponse, {
        'x-forwarded-for': `10.77.1.${i + 1}`,
      });
      if (v === 'cut' || v.status !== 200) throw new Error(`verify ${i}: ${JSON.stringify(v)}`);
      return { id, orderNumber: v.body.orderNumber as string };
    };

    // Before: a sale, and the reads come from the cache (the product list is in Redis).
    const before = await buy(true);
    await readsShowLedger('before the outage');
    await probe.connect();
    expect((await probe.keys('shop:*catalog:products:*')).length, 'the product list cached in Redis').toBeGreaterThan(
      0,
    );
    probe.disconnect();

    // Redis stops. Reads and purchases go on for OUTAGE_MS; one buyer leaves a hold unpaid.
    await stores.redis.stop();
    const downAt = Date.now();
    progress('Redis stopped');
    const unpaid = await buy(false);
    const paidDuring: Array<{ id: string; orderNumber: string | null }> = [];
    let readsDuring = 0;
    // Bounded by the stock as well as by time: the unpaid hold and the purchase after the outage need a unit each.
    const MAX_PAID_DURING = STOCK - 3;
    while (Date.now() - downAt < OUTAGE_MS) {
      if (paidDuring.length < MAX_PAID_DURING) paidDuring.push(await buy(true));
      const r0 = reads;
      await readsShowLedger('while Redis is down');
      readsDuring += reads - r0;
    }
    const health = await api<{ dependencies: Array<{ name: string; ok: boolean }> }>('GET', '/api/health');
    expect(health.status, 'health tells Redis is down').toBe(503);
    const unpaidHold = (await expectLedgerBalanced(pool, productId, STOCK, 'at the end of the outage')).liveHolds;
    expect(unpaidHold.length, 'the expired unpaid hold: no sweep ran without Redis').toBe(1);
    progress(`${paidDuring.length} orders and ${readsDuring} reads during the outage`);

    // Redis comes back, empty, where it was.
    const lastBeforeUp = (
      await pool.query<{ p: string }>(`SELECT coalesce(max(global_position), 0)::text AS p FROM catalog.events`)
    ).rows[0]!.p;
    stores.redis = await startTestRedis({ port: stores.redis.port }); // stopped with the test in the first one's place
    const upAt = Date.now();
    progress(`Redis back after ${upAt - downAt} ms`);
    await waitUntil(
      async () => (await api('GET', '/api/health')).status === 200,
      'every process healthy again',
      30_000,
    );

    // The sweep runs again (its schedule put back in the empty Redis): the expired hold is released.
    await waitUntil(
      async () => (await expectLedgerBalanced(pool, productId, STOCK, 'after Redis is back')).held === 0,
      'the expired unpaid hold released by the sweep after Redis is back',
      30_000,
    );
    const releasedMs = Date.now() - upAt;
    const released = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog.events WHERE type = 'StockReleased' AND stream_id LIKE $1 AND global_position > $2::bigint`,
      [`stock-${productId}%`, lastBeforeUp],
    );
    expect(released.rows[0]!.n, 'released after Redis was back').toBe(1);
    progress(`expired hold (${unpaid.id}) released ${releasedMs} ms after Redis was back`);

    // The cache resumes: the list is cached in Redis again, and list and detail show the right stock.
    const after = await buy(true);
    await readsShowLedger('after Redis is back');
    await probe.connect();
    await waitUntil(
      async () => (await probe.keys('shop:*catalog:products:*')).length > 0,
      'the product list cached in Redis again',
      20_000,
    );
    await readsShowLedger('from the cache after Redis is back');

    // Every paid order once.
    const orders = (await api<OrderView[]>('GET', '/api/orders/admin/all', { token })).body;
    const paid = [before, ...paidDuring, after];
    for (const p of paid)
      expect(
        orders.filter((o) => o.razorpayOrderId === p.id),
        `order of ${p.id}`,
      ).toHaveLength(1);
    expect(orders).toHaveLength(paid.length);
    const ledger = await expectLedgerBalanced(pool, productId, STOCK, 'at the end');
    expect(ledger.sold).toBe(paid.length);

    console.log(
      `redis outage: down ${upAt - downAt} ms; ${paidDuring.length} orders placed and ${readsDuring} reads (all 200, right stock) during it; expired hold released by the sweep ${releasedMs} ms after Redis was back; lost 0, duplicated 0`,
    );
  }, 180_000);
});
