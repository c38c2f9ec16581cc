import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { listen } from '@shop/shared/runtime/host';
import { closeServer } from '@shop/test-support/loopback-servers';
import { testShopForTests } from '@shop/test-support/file-shop';
import { pngOfSize } from '@shop/test-support/fixtures';
import { createProxyGateway } from './proxy.ts';
import { SERVICE_ROUTES } from './route-table.ts';

/**
 * Issue 13: the distributed gateway in front of the real services (a test shop stands in for every service
 * process): security headers, the CORS policy, and body limits answered with a 413 JSON, never a reset
 * connection or a 502.
 */

const ALLOWED = 'https://partner.example.in';
const running = testShopForTests();
let gateway: Server;
let base: string;

beforeAll(async () => {
  const services = Object.fromEntries(Object.keys(SERVICE_ROUTES).map((name) => [name, new URL(running.shop.url)]));
  const app = createProxyGateway({
    services,
    logger: createLogger('gateway', 'silent'),
    metrics: new Metrics('gateway'),
    corsOrigins: ALLOWED,
  });
  const listening = await listen(app, 0, '127.0.0.1');
  gateway = listening.server;
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(async () => {
  if (gateway) await closeServer(gateway);
});

const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as { message?: string } });

/** A body streamed in 64 KiB chunks without a Content-Length (Transfer-Encoding: chunked). */
const chunked = (bytes: Buffer) => {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
};

/** A valid PNG of `size` bytes. */
const png = pngOfSize;

const productForm = (image: Buffer) => {
  const form = new FormData();
  form.set('name', 'Khadi Kurta');
  form.set('price', '1499');
  form.set('quantity', '3');
  form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'kurta.png');
  return form;
};

describe('security headers through the distributed gateway', () => {
  it("the gateway's own answers and the ones it forwards carry the API CSP, DENY framing and nosniff", async () => {
    for (const path of ['/api/health', '/api/products', '/api/no-such-thing', '/internal/inventory/reserve']) {
      const r = await fetch(base + path);
      expect(r.headers.get('content-security-policy'), path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('CORS: a listed origin gets its preflight answered 204 by the gateway, another origin gets nothing', async () => {
    const preflight = (origin: string) =>
      fetch(`${base}/api/auth/login`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const ok = await preflight(ALLOWED);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(ok.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${base}/api/products`, { headers: { origin: ALLOWED } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});

describe('body limits through the distributed gateway', () => {
  const bigJson = Buffer.from(JSON.stringify({ email: 'a@b.in', password: 'x'.repeat(2 * 1024 * 1024) }));

  it('a JSON body over 1 MB with a Content-Length: 413 "Request body too large" from the gateway', async () => {
    const r = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigJson,
    });
    expect(await json(r)).toEqual({ status: 413, body: { message: 'Request body too large' } });
    // The connection is still good for the next request.
    expect((await fetch(`${base}/api/products`)).status).toBe(200);
  });

  it('a chunked JSON body over 1 MB: cut at the limit and answered 413 JSON, not a reset or a 502', async () => {
    const r = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked(bigJson),
      duplex: 'half',
    } as RequestInit);
    expect(await json(r)).toEqual({ status: 413, body: { message: 'Request body too large' } });
    expect((await fetch(`${base}/api/products`)).status).toBe(200);
  });

  it('a chunked JSON body under the limit still goes through (a log-in)', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'admin@test.local', password: 'admin-pass-123' }));
    const r = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked(body),
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(200);
  });

  it('an image over 5 MB in the product form: 413 "Image too large" from the catalog, passed through', async () => {
    const r = await fetch(`${base}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.admin}` },
      body: productForm(png(5 * 1024 * 1024 + 1)),
    });
    expect(await json(r)).toEqual({ status: 413, body: { message: 'Image too large' } });
  });

  it('a product form larger than one image and its fields could be: 413 before the body is read', async () => {
    const r = await fetch(`${base}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.admin}` },
      body: productForm(png(8 * 1024 * 1024)),
    });
    expect(await json(r)).toEqual({
      status: 413,
      body: { message: 'Request body too large: a form may hold at most 1 image of 5 MB each and its fields' },
    });
    // The catalog answered before reading the body: the gateway stops forwarding it (piping it on stalled the
    // client's connection, and the next request sent on it waited forever).
    for (let i = 0; i < 3; i++) {
      const next = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@test.local', password: 'admin-pass-123' }),
      });
      expect(next.status).toBe(200);
    }
  });

  it('an image within the limit is accepted through the gateway', async () => {
    const r = await fetch(`${base}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.admin}` },
      body: productForm(png(64 * 1024)),
    });
    const created = (await r.json()) as { image?: string; images?: string[] };
    expect(r.status).toBe(201);
    expect(created.image).toMatch(/^\/uploads\/[\w-]+_w1\/1\.jpg$/);
  });

  it('a body of a type the API does not read: 415 naming it, through the gateway', async () => {
    const r = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40b.in&password=x',
    });
    expect(await json(r)).toEqual({
      status: 415,
      body: {
        message:
          'Unsupported Content-Type "application/x-www-form-urlencoded": send the body as JSON with Content-Type application/json (image uploads: multipart/form-data)',
      },
    });
  });
});
