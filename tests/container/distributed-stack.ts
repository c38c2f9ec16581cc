/**
 * The container tier's e2e (run by scripts/ci/container-tier.sh once compose reports the stack healthy): the
 * distributed shop in its containers, reached only through the gateway's published port.
 *
 * 1. An admin signs in and opens the orders push stream; a guest buys through the payment sandbox; the order
 *    is on the admin's stream.
 * 2. A sale of SALE_BUYERS guests (each in a browser of their own), CROWD at a time. When KILL_AFTER payments
 *    are verified, `KILL_COMMAND` kills a service container (kill -9 of its process: compose's restart policy
 *    brings it back) while the others go on paying.
 * 3. Nothing is lost: once the killed service is back, every payment the sandbox took is exactly one order
 *    on the admin list, and the product's stock is its units less those sold. The admin's stream, opened
 *    again as a browser's EventSource reconnects, pushes the next purchase.
 *
 * Environment: SHOP_URL, ADMIN_EMAIL, ADMIN_PASSWORD, KILL_COMMAND (a shell command), KILLED (its name, for
 * the report). Prints one `figure:` line per measurement; exits 1 naming the first thing that went wrong.
 */
import { execSync } from 'node:child_process';
import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { openEventStream, type EventStreamReader } from '../../services/order/src/testing/sse-client.ts';
import { CookieJar, httpClient } from '@shop/test-support/http';
import { guestOrder } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';

const SALE_BUYERS = 24;
const CROWD = 6;
const KILL_AFTER = 6;
const STOCK = 100; // ample: no buyer is refused for stock, so every payment must become an order

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const base = env('SHOP_URL');
const admin = { email: env('ADMIN_EMAIL'), password: env('ADMIN_PASSWORD') };
const killCommand = env('KILL_COMMAND');
const killed = process.env.KILLED ?? 'a service';

const t0 = performance.now();
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const figure = (what: string, value: string) => console.log(`figure: ${what}: ${value}`);
function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(what);
}

interface OrderView {
  orderNumber: string;
  razorpayOrderId: string;
}

/** One guest's purchase: create-order, pay in the sandbox, verify; its provider order and verify's answer. */
async function buy(n: number, productId: string) {
  const api = httpClient(base, new CookieJar());
  const created = await api<{ id: string }>('POST', '/api/payment/create-order', {
    body: guestOrder(`ct_${n}_${Date.now()}`, n, [{ productId, quantity: 1 }]),
  });
  if (created.status !== 201)
    throw new Error(`buyer ${n}: create-order ${created.status} ${JSON.stringify(created.body)}`);
  const paid = await sandboxPay(`${base}/razorpay-sandbox`, created.body.id);
  const started = performance.now();
  const verified = await api<{ orderNumber?: string | null }>('POST', '/api/payment/verify', { body: paid });
  return {
    providerOrder: created.body.id,
    verify: verified.status,
    orderNumber: verified.body.orderNumber,
    ms: performance.now() - started,
  };
}

/** The admin's push stream as the web app opens it (a ticket, then ?ticket=), once it says ready. */
async function adminStream(token: string): Promise<EventStreamReader> {
  const api = httpClient(base);
  const ticket = await api<{ ticket: string }>('POST', '/api/orders/stream-ticket', { token });
  check(ticket.status === 200, `stream ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const stream = await openEventStream(`${base}/api/orders/stream?ticket=${encodeURIComponent(ticket.body.ticket)}`);
  check(stream.status === 200, `admin stream: ${stream.status} ${stream.refusal}`);
  await stream.waitFor((e) => e.event === 'ready', 'the admin stream to be ready', 15_000);
  return stream;
}

/** A purchase that must be pushed to the admin's stream: its order number and how long that took. */
async function pushedPurchase(stream: EventStreamReader, n: number, productId: string): Promise<string> {
  const bought = await buy(n, productId);
  check(
    bought.verify === 200 && bought.orderNumber,
    `purchase ${n}: verify ${bought.verify}, order ${bought.orderNumber}`,
  );
  await stream.waitFor(
    (e) => e.event === 'order' && e.json<OrderView>().orderNumber === bought.orderNumber,
    `order ${bought.orderNumber} on the admin stream`,
    15_000,
  );
  return bought.orderNumber!;
}

async function main(): Promise<void> {
  const api = httpClient(base);
  const login = await api<{ token: string }>('POST', '/api/auth/login', { body: admin });
  check(login.status === 200, `admin login: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.token;
  let stream = await adminStream(token);

  const form = new FormData();
  for (const [k, v] of Object.entries({
    name: `Container tier kurta ${Date.now()}`,
    price: '999',
    quantity: String(STOCK),
    category: 'Men',
  }))
    form.append(k, v);
  const product = await api<{ id: string }>('POST', '/api/products', { token, form });
  check(product.status === 201, `product: ${product.status} ${JSON.stringify(product.body)}`);
  const productId = product.body.id;

  // 1. one purchase, pushed to the admin
  let t = performance.now();
  await pushedPurchase(stream, 1, productId);
  figure('one purchase through the sandbox, on the admin stream', since(t));

  // 2. the sale, a service container killed under it
  t = performance.now();
  const results: Array<Awaited<ReturnType<typeof buy>>> = [];
  let verifiedCount = 0;
  let killedAt: number | undefined;
  let next = 2;
  const worker = async () => {
    while (next <= SALE_BUYERS + 1) {
      const n = next++;
      const r = await buy(n, productId);
      results.push(r);
      if (r.verify < 300) verifiedCount++;
      if (killedAt === undefined && verifiedCount >= KILL_AFTER) {
        killedAt = performance.now();
        execSync(killCommand, { stdio: 'inherit', shell: '/bin/bash' });
        console.log(`killed ${killed} after ${verifiedCount} verified payments`);
      }
    }
  };
  await Promise.all(Array.from({ length: CROWD }, worker));
  check(killedAt !== undefined, `${killed} was never killed`);
  const refused = results.filter((r) => r.verify >= 300);
  check(refused.length === 0, `verify refused: ${refused.map((r) => `${r.providerOrder} ${r.verify}`).join(', ')}`);
  figure(
    'sale',
    `${results.length} guests paid in ${since(t)}, ${killed} killed after ${KILL_AFTER} verified payments`,
  );
  const slowest = Math.max(...results.map((r) => r.ms));
  figure(
    'verify',
    `${results.filter((r) => r.orderNumber).length} answered with the order, ${results.filter((r) => !r.orderNumber).length} with 202 (placed later); slowest ${Math.round(slowest)} ms`,
  );

  // 3. nothing lost
  const paid = results;
  const orders = await waitUntil(
    async () => {
      const all = await api<OrderView[]>('GET', '/api/orders/admin/all', { token });
      if (all.status !== 200) return undefined;
      const mine = all.body.filter((o) => paid.some((p) => p.providerOrder === o.razorpayOrderId));
      return mine.length >= paid.length ? mine : undefined;
    },
    `an order for each of the ${paid.length} payments after ${killed} came back`,
    180_000,
  );
  figure(`${killed} killed to every order listed`, since(killedAt!));
  for (const p of paid) {
    const of = orders.filter((o) => o.razorpayOrderId === p.providerOrder);
    check(of.length === 1, `payment ${p.providerOrder}: ${of.length} orders`);
    if (p.orderNumber) check(of[0]!.orderNumber === p.orderNumber, `payment ${p.providerOrder}: order number differs`);
  }
  const sold = paid.length + 1; // and the first purchase
  const stock = await waitUntil(
    async () => {
      const r = await api<{ quantity: number }>('GET', `/api/products/${productId}`);
      return r.status === 200 && r.body.quantity === STOCK - sold ? r.body : undefined;
    },
    `the product's stock to read ${STOCK - sold}`,
    60_000,
  );
  figure(
    'nothing lost',
    `${paid.length} payments of the sale = ${orders.length} orders, each once; stock ${stock.quantity} = ${STOCK} - ${sold}`,
  );

  // the admin's stream after the restart, opened again as the web app's EventSource reconnects (the kill may
  // have cut the first one)
  t = performance.now();
  stream.close();
  stream = await adminStream(token);
  await pushedPurchase(stream, SALE_BUYERS + 2, productId);
  stream.close();
  figure('a purchase after the restart on the admin stream', since(t));
  figure('distributed e2e total', since(t0));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`container e2e FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
