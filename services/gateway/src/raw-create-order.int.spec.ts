import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '@shop/test-support/fixtures';
import { guestOrder } from '@shop/test-support/purchase';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { CREATE_ORDER_PATH } from './raw-create-order.ts';

/**
 * The create-order answered before express (raw-create-order.ts) against the route itself, in one shop: a
 * request with Content-Length is read by the raw handler; the same request sent chunked (no Content-Length)
 * goes to express untouched (the raw handler reads only bodies of a known small size). The answers' bytes are
 * compared, all but the Date header and the random guest id in the minted cookie.
 */

let shop: TestShop;
let admin: string;
/** Allowed payment calls a minute per client address: the over-limit case uses an address of its own. */
const PER_ADDRESS = 6;

beforeAll(async () => {
  shop = await startTestShop({ env: { PAYMENT_CALLS_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS) } });
  admin = await shop.login();
}, 60_000);
afterAll(async () => {
  await shop?.stop();
});

interface Exchange {
  status: number;
  /** The status line and headers as sent, Date removed, the guest id replaced by `<id>`. */
  head: string;
  body: string;
}

/** One request over a fresh connection, bytes in and out; `chunked` sends the body without Content-Length. */
function exchange(body: string, opts: { chunked?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
  const headers = {
    host: `127.0.0.1:${shop.port}`,
    'content-type': 'application/json',
    'x-request-id': 'raw-spec-request',
    connection: 'close',
    ...opts.headers,
  };
  const bytes = Buffer.from(body);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  lines.push(opts.chunked ? 'transfer-encoding: chunked' : `content-length: ${bytes.length}`);
  const payload = opts.chunked
    ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')])
    : bytes;
  return new Promise((resolve, reject) => {
    const socket = net.connect(shop.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = text
        .slice(0, split)
        .split('\r\n')
        .filter((l) => !/^date:/i.test(l))
        .map((l) => l.replace(/kapda_guest=[^;]+/, 'kapda_guest=<id>'))
        .join('\r\n');
      resolve({ status: Number(text.slice(9, 12)), head, body: text.slice(split + 4) });
    });
    socket.write(`POST ${CREATE_ORDER_PATH} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    socket.write(payload);
  });
}

const refusals = async (by: 'raw' | 'app') =>
  (await shop.infra.metrics.refusals.get()).values.find(
    (v) => v.labels.by === by && v.labels.route === CREATE_ORDER_PATH,
  )?.value ?? 0;

/** A product with one unit, bought (held) by a first buyer: sold out from then on. */
async function soldOutProduct(name: string): Promise<string> {
  const id = await createProduct(shop.api, admin, { name, price: '999', quantity: '1' });
  const first = await exchange(JSON.stringify(guestOrder('rcpt_first', 1, [{ productId: id, quantity: 1 }])), {
    headers: { 'x-forwarded-for': '10.9.0.1' },
  });
  expect(first.status, first.body).toBe(201);
  return id;
}

let address = 0;
/** A client address of its own (X-Forwarded-For, trusted from loopback), so no case spends another's budget. */
const fromNewAddress = () => ({ 'x-forwarded-for': `10.1.0.${++address}` });

describe('POST /api/payment/create-order answered before express', () => {
  it('answers a sold-out refusal with the very bytes express answers (status, body, headers but Date), and counts it', async () => {
    const id = await soldOutProduct('Raw Kurta');
    const order = JSON.stringify(guestOrder('rcpt_2', 2, [{ productId: id, quantity: 1 }]));
    for (const extra of [{}, { 'accept-encoding': 'gzip, deflate, br' }] as Array<Record<string, string>>) {
      const headers = { ...fromNewAddress(), ...extra };
      const [rawBefore, appBefore] = [await refusals('raw'), await refusals('app')];
      const raw = await exchange(order, { headers });
      expect(await refusals('raw')).toBe(rawBefore + 1);
      const viaExpress = await exchange(order, { headers, chunked: true });
      expect(await refusals('app')).toBe(appBefore + 1);
      expect(raw.status).toBe(409);
      expect(JSON.parse(raw.body)).toEqual({
        message: 'Raw Kurta only has 0 item(s) available. You requested 1.',
        title: 'Not enough stock',
      });
      expect(raw.head).toBe(viaExpress.head);
      expect(raw.body).toBe(viaExpress.body);
      expect(raw.head).toMatch(/\r\nSet-Cookie: kapda_guest=<id>; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
      expect(raw.head).toContain('\r\nx-request-id: raw-spec-request');
      expect(raw.head).toContain("\r\nContent-Security-Policy: default-src 'none';frame-ancestors 'none'");
    }
  });

  it('counts a refusal against the payment rate limits as the route does, and answers the same 429 past them', async () => {
    const id = await soldOutProduct('Limited Kurta');
    const order = JSON.stringify(guestOrder('rcpt_3', 3, [{ productId: id, quantity: 1 }]));
    const headers = fromNewAddress();
    const rawBefore = await refusals('raw');
    for (let i = 0; i < PER_ADDRESS; i++) expect((await exchange(order, { headers })).status).toBe(409);
    expect(await refusals('raw')).toBe(rawBefore + PER_ADDRESS);
    const raw = await exchange(order, { headers });
    const viaExpress = await exchange(order, { headers, chunked: true });
    expect(raw.status).toBe(429);
    expect(JSON.parse(raw.body)).toEqual({
      message: 'Too many payment attempts from your network, please try again in a minute',
    });
    expect(raw.head.replace(/Retry-After: \d+/, 'Retry-After: n')).toBe(
      viaExpress.head.replace(/Retry-After: \d+/, 'Retry-After: n'),
    );
    expect(raw.body).toBe(viaExpress.body);
    expect(await refusals('raw')).toBe(rawBefore + PER_ADDRESS);
  });

  it('answers malformed JSON with the 400 express answers', async () => {
    const headers = fromNewAddress();
    const raw = await exchange('{"orderData": ', { headers });
    const viaExpress = await exchange('{"orderData": ', { headers, chunked: true });
    expect(raw.status).toBe(400);
    expect(raw.head).toBe(viaExpress.head);
    expect(raw.body).toBe(viaExpress.body);
  });

  it('leaves to express whatever stock does not refuse: on sale, invalid, a coupon, a returning guest, an account', async () => {
    const onSale = await createProduct(shop.api, admin, { name: 'Plenty Kurta', price: '999', quantity: '50' });
    const soldOut = await soldOutProduct('Gone Kurta');
    const rawBefore = await refusals('raw');
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      exchange(JSON.stringify(body), { headers: { ...fromNewAddress(), ...headers } });

    expect((await post(guestOrder('r', 4, [{ productId: onSale, quantity: 1 }]))).status).toBe(201);
    // A cart with one line on sale and one sold out: the route holds the first, then refuses (and releases it).
    const mixed = await post(
      guestOrder('r', 5, [
        { productId: onSale, quantity: 1 },
        { productId: soldOut, quantity: 1 },
      ]),
    );
    expect(mixed.status).toBe(409);
    const invalid = await post(guestOrder('r', 6, [{ productId: soldOut, quantity: 1 }], { customerPhone: '' }));
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toEqual({ message: 'Please fill all required fields' });
    const coupon = await post(guestOrder('r', 7, [{ productId: soldOut, quantity: 1 }], { couponCode: 'NOSUCH' }));
    expect(coupon.status).not.toBe(201);
    // A returning guest (their signed cookie) and a signed-in buyer: the route first replaces their checkout.
    const cookie = /kapda_guest=[^;]+/.exec(
      (await fetch(`${shop.url}${CREATE_ORDER_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fromNewAddress() },
        body: JSON.stringify(guestOrder('r', 8, [{ productId: onSale, quantity: 1 }])),
      }).then((r) => r.headers.get('set-cookie'))) ?? '',
    )![0];
    expect((await post(guestOrder('r', 8, [{ productId: soldOut, quantity: 1 }]), { cookie })).status).toBe(409);
    const shopper = (await shop.signUp('Raw Shopper', 'raw.shopper@example.in')).token;
    const signedIn = await post(guestOrder('r', 9, [{ productId: soldOut, quantity: 1 }]), {
      authorization: `Bearer ${shopper}`,
    });
    expect(signedIn.status).toBe(409);
    expect(await refusals('raw')).toBe(rawBefore);
  });

  it('sees at once an admin raising the stock of a sold-out product (the all-in-one trusts its writer, no window)', async () => {
    const id = await soldOutProduct('Restocked Kurta');
    const order = (n: number) => JSON.stringify(guestOrder(`r${n}`, n, [{ productId: id, quantity: 1 }]));
    const rawBefore = await refusals('raw');
    expect((await exchange(order(10), { headers: fromNewAddress() })).status).toBe(409);
    expect(await refusals('raw')).toBe(rawBefore + 1);
    const raised = await shop.api('PUT', `/api/products/${id}`, { token: admin, body: { quantity: 3 } });
    expect(raised.status).toBe(200);
    expect((await exchange(order(11), { headers: fromNewAddress() })).status).toBe(201);
    expect(await refusals('raw')).toBe(rawBefore + 1);
  });
});
