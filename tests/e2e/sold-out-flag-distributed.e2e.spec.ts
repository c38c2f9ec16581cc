import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { guestOrder } from '@shop/test-support/purchase';
import { waitUntil } from '@shop/test-support/wait-until';
import { createProduct } from '@shop/test-support/fixtures';
import { progressLog, saleProduct, saleStores, startDistributedSale, stopsAfterAll } from './support/sale.ts';

/**
 * Issue 24 item 3, distributed mode: the gateway answers a sold-out create-order itself from the sold-out flags
 * the catalog service publishes (SoldOutBeacon -> SoldOutFlags, raw-create-order.ts), with the very bytes the
 * request proxied to checkout is answered with; a restock clears the flag at once (the next create-order
 * reaches checkout and is taken). A request with Content-Length is the gateway's to answer; the same request
 * sent chunked is always forwarded (the raw handler reads only bodies of a known small size).
 */
const ADMIN = { email: 'soldout-flag-admin@shop.local', password: 'soldout-flag-pass' };
const CREATE_ORDER = '/api/payment/create-order';
const stops = stopsAfterAll();
/** Allowed payment calls a minute per client address (the gateway and checkout count them together). */
const PER_ADDRESS = 6;

interface Exchange {
  status: number;
  /** The status line and headers as sent, Date removed, the guest id replaced by `<id>`. */
  head: string;
  body: string;
}

/** One create-order over a fresh connection, bytes in and out; `chunked` sends the body without Content-Length. */
function exchange(
  port: number,
  body: string,
  opts: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const headers = {
    host: `127.0.0.1:${port}`,
    'content-type': 'application/json',
    'x-request-id': 'soldout-flag-request',
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
    const socket = net.connect(port, '127.0.0.1');
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
    socket.write(`POST ${CREATE_ORDER} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    socket.write(payload);
  });
}

let address = 0;
/** A client address of its own (X-Forwarded-For, trusted from loopback), so no request spends another's budget. */
const fromNewAddress = () => ({ 'x-forwarded-for': `10.2.0.${++address}` });

describe('distributed mode: the gateway refuses a sold-out create-order from the catalog’s sold-out flag', () => {
  it('answers the proxied 409 byte for byte, and forwards again at once after a restock', async () => {
    const progress = progressLog('sold-out-flag', Date.now());
    const stores = await saleStores(stops, 'sold-out-flag');
    const { base, api, token, productId } = await startDistributedSale({
      admin: ADMIN,
      env: {
        ...stores.env,
        KAFKA_BROKERS: undefined,
        JWT_SECRET: 'sold-out-flag-e2e-secret-0123456789',
        PAYMENT_CALLS_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
      },
      stops,
      progress,
      product: saleProduct('Flag Kurta', 1),
    });
    const port = Number(new URL(base).port);
    /** The gateway's own refusals (refusals_total{by="raw"} on its /metrics). */
    const gatewayRefusals = async () => {
      const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      const line = (await r.text())
        .split('\n')
        .find((l) => l.startsWith('refusals_total{') && l.includes('by="raw"') && l.includes(CREATE_ORDER));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const order = (n: number, id = productId) =>
      JSON.stringify(guestOrder(`rcpt_${n}`, n, [{ productId: id, quantity: 1 }]));

    // The first buyer takes the only unit (through checkout: nothing is flagged yet).
    expect((await exchange(port, order(1), { headers: fromNewAddress() })).status).toBe(201);
    // Once the catalog's flag has reached the gateway, the gateway answers the refusal itself.
    let n = 1;
    await waitUntil(async () => {
      const before = await gatewayRefusals();
      const answer = await exchange(port, order(++n), { headers: fromNewAddress() });
      expect(answer.status, answer.body).toBe(409);
      return (await gatewayRefusals()) === before + 1;
    }, 'the gateway to answer a sold-out create-order itself');
    progress('the gateway refuses from the flag');

    for (const extra of [{}, { 'accept-encoding': 'gzip, deflate, br' }] as Array<Record<string, string>>) {
      const headers = { ...fromNewAddress(), ...extra };
      const before = await gatewayRefusals();
      const mine = await exchange(port, order(++n), { headers });
      expect(await gatewayRefusals()).toBe(before + 1);
      const proxied = await exchange(port, order(n), { headers, chunked: true });
      expect(await gatewayRefusals()).toBe(before + 1);
      expect(mine.status).toBe(409);
      expect(JSON.parse(mine.body)).toEqual({
        message: 'Flag Kurta only has 0 item(s) available. You requested 1.',
        title: 'Not enough stock',
      });
      expect(mine.head).toBe(proxied.head);
      expect(mine.body).toBe(proxied.body);
      expect(mine.head).toMatch(/\r\nset-cookie: kapda_guest=<id>; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/i);
      expect(mine.head).toMatch(/\r\nx-request-id: soldout-flag-request/i);
    }

    // The gateway counts the route's limits where checkout counts them: its refusals and checkout's from one
    // address add up, and past the limit both answer the same 429.
    const headers = fromNewAddress();
    for (let i = 0; i < PER_ADDRESS; i++)
      expect((await exchange(port, order(++n), { headers, chunked: i % 2 === 1 })).status).toBe(409);
    const mine429 = await exchange(port, order(++n), { headers });
    const proxied429 = await exchange(port, order(n), { headers, chunked: true });
    expect(mine429.status, mine429.body).toBe(429);
    const retry = (head: string) => head.replace(/retry-after: \d+/i, 'retry-after: n');
    expect(retry(mine429.head)).toBe(retry(proxied429.head));
    expect(mine429.body).toBe(proxied429.body);

    // A product of its own on sale is never refused by the gateway (no flag for it).
    const other = await createProduct(api, token, saleProduct('Plenty Kurta', 5));
    const before = await gatewayRefusals();
    expect((await exchange(port, order(++n, other), { headers: fromNewAddress() })).status).toBe(201);

    // The admin restocks: the very next create-order reaches checkout and takes a unit.
    const restocked = await api('PUT', `/api/products/${productId}`, { token, body: { quantity: 3 } });
    expect(restocked.status, JSON.stringify(restocked.body)).toBe(200);
    const next = await exchange(port, order(++n), { headers: fromNewAddress() });
    expect(next.status, next.body).toBe(201);
    expect(await gatewayRefusals()).toBe(before);
  }, 180_000);
});
