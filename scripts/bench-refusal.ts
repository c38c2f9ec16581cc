/**
 * Shop CPU per sold-out create-order (409): a product of one unit is bought, then `--requests` first-visit
 * guests (each from an address of its own) ask for it, `--concurrency` at a time, and the shop's node processes'
 * CPU (user + system, from /proc) is read before and after. The load generator is this process (not counted).
 *
 *   npx tsx scripts/bench-refusal.ts [--mode embedded|distributed] [--requests 2000] [--concurrency 32] [--keep-alive]
 *
 * By default every request comes on a fresh connection (a sale's crowd); --keep-alive reuses connections, which
 * leaves out the connection set-up and shows the handler's own cost.
 */
import { Agent, request } from 'undici';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import { adminToken, startShopUnderTest } from './bench/shop-under-test.ts';
import { canMeasureCpu, processesCpuSeconds } from './bench/process-cpu.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const mode = arg('mode', 'embedded');
const requests = Number(arg('requests', '2000'));
const concurrency = Number(arg('concurrency', '32'));
if (!canMeasureCpu()) throw new Error('needs /proc to read the shop processes CPU');

const shop = await startShopUnderTest(mode, { RESERVATION_TTL_SECONDS: '900' });
const keepAlive = process.argv.includes('--keep-alive');
const dispatcher = new Agent({ connections: concurrency });
try {
  const token = await adminToken(shop.base);
  const created = await request(`${shop.base}/api/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Refusal Kurta', price: 999, quantity: 1, category: 'Men' }),
  });
  const { id } = (await created.body.json()) as { id: string };
  let n = 0;
  const createOrder = async () => {
    const b = n++;
    const r = await request(`${shop.base}/api/payment/create-order`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', ...(keepAlive ? {} : { connection: 'close' }), ...fromBuyer(b) },
      body: JSON.stringify(guestOrder(`refusal_${b}`, b, [{ productId: id, quantity: 1 }])),
    });
    await r.body.dump();
    return r.statusCode;
  };
  if ((await createOrder()) !== 201) throw new Error('the one unit was not sold');
  const run = async (count: number) => {
    const statuses = new Map<number, number>();
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) {
          const s = await createOrder();
          statuses.set(s, (statuses.get(s) ?? 0) + 1);
        }
      }),
    );
    return statuses;
  };
  await run(300); // warm-up: JIT, pools, the in-memory sold-out state
  const before = processesCpuSeconds();
  const t0 = performance.now();
  const statuses = await run(requests);
  const ms = performance.now() - t0;
  const cpu = processesCpuSeconds() - before;
  console.log(
    `${mode}${keepAlive ? ' (keep-alive)' : ''}: ${requests} sold-out create-orders in ${(ms / 1000).toFixed(2)} s; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  const metrics = await request(`${shop.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const counted = (await metrics.body.text()).split('\n').filter((l) => l.startsWith('refusals_total'));
  console.log(`refusals_total (every process's): ${counted.join('; ') || 'none'}`);
  console.log(`shop CPU per refusal: ${((cpu / requests) * 1e6).toFixed(0)} µs (${cpu.toFixed(3)} CPU-s in all)`);
} finally {
  await dispatcher.close();
  await shop.stop();
}
