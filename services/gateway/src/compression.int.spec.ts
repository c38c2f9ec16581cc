import fs from 'node:fs';
import http, { type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressResponses } from '@shop/shared/http/compression';
import { createHttpApp } from '@shop/shared/http/app';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { listen } from '@shop/shared/runtime/host';
import { createProduct } from '@shop/test-support/fixtures';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { serveWebApp } from './web.ts';

const GZIP = { 'accept-encoding': 'gzip' };
const servers: Server[] = [];
let shop: TestShop;
let dist: string;
let webUrl: string;
const appJs = `export const products = ${JSON.stringify(
  Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Kurta ${i}`, price: 999 })),
)};\n`;

beforeAll(async () => {
  shop = await startTestShop({ seed: true });
  // A built web app of our own (the real one is built only for the e2e tier), served as the shop does:
  // the shared HTTP app plus serveWebApp.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><title>Kapda</title><script type="module" src="/assets/app.js"></script></head><body>${'<div class="row"></div>'.repeat(100)}</body></html>`,
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), appJs);
  const app = createHttpApp({ logger: createLogger('test', 'silent'), metrics: new Metrics('test') });
  serveWebApp(app, dist);
  const { server, port } = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  webUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await shop?.stop();
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});

describe('HTTP compression (issue 15, defect 8: no compression)', () => {
  it('gzips the web app HTML and JavaScript for a client that accepts gzip', async () => {
    const html = await fetch(`${webUrl}/products`, { headers: GZIP });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-encoding')).toBe('gzip');
    expect(await html.text()).toContain('<title>Kapda</title>');

    const js = await fetch(`${webUrl}/assets/app.js`, { headers: GZIP });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(await js.text()).toBe(appJs);
  });

  it('gzips a JSON list (GET /api/products) and the bytes on the wire are smaller than the JSON', async () => {
    const r = await fetch(`${shop.url}/api/products`, { headers: GZIP });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe('gzip');
    const products = (await r.json()) as unknown[];
    expect(products.length).toBeGreaterThan(10);
    // The same list read raw: gunzip it ourselves to prove it is really gzip and smaller.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${shop.url}/api/products`, { headers: GZIP }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    const json = gunzipSync(raw);
    expect(JSON.parse(json.toString('utf8'))).toEqual(products);
    expect(raw.length).toBeLessThan(json.length / 2);
  });

  it('sends the product list compressed once per change: brotli to a client that accepts it, gzip to one that takes only gzip, and a new product at once', async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${shop.url}/api/products`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (d: Buffer) => parts.push(d));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
            res.on('error', reject);
          })
          .on('error', reject);
      });
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const browser = await raw('gzip, deflate, br, zstd');
    expect(browser.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(browser.body).equals(plain.body)).toBe(true);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // the next gzip reader gets the same bytes (that they are made once, not per request: compression.unit.spec.ts)
    expect((await raw('gzip')).body.equals(gz.body)).toBe(true);

    // A change is seen compressed at once (the copy goes with the list it was made from).
    const admin = await shop.login();
    const id = await createProduct(shop.api, admin, {
      name: 'Compressed Kurta',
      price: '1299',
      quantity: '3',
      category: 'Men',
    });
    const after = JSON.parse(gunzipSync((await raw('gzip')).body).toString('utf8')) as Array<{ id: string }>;
    expect(after.some((p) => p.id === id)).toBe(true);
  });

  it('leaves answers uncompressed for a client that does not accept compression', async () => {
    const r = await fetch(`${shop.url}/api/products`, { headers: { 'accept-encoding': 'identity' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses the order push stream (text/event-stream), even when the client accepts gzip', async () => {
    const token = await shop.login();
    const abort = new AbortController();
    const r = await fetch(`${shop.url}/api/orders/stream`, {
      headers: { ...GZIP, authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    try {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(r.headers.get('content-encoding')).toBeNull();
      // The first event arrives at once, not held in a compressor's buffer.
      const reader = r.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('event: ready');
    } finally {
      abort.abort();
    }
  });

  it('never compresses a text/event-stream answer, whatever its Cache-Control says', async () => {
    // The push hub also sends `no-transform`; the compression filter must not depend on that.
    const app = express();
    app.use(compressResponses());
    app.get('/events', (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.end(`data: ${'x'.repeat(5000)}\n\n`);
    });
    app.get('/json', (_req, res) => void res.json({ data: 'x'.repeat(5000) }));
    const { server, port } = await listen(app, 0, '127.0.0.1');
    servers.push(server);
    const events = await fetch(`http://127.0.0.1:${port}/events`, { headers: GZIP });
    expect(events.headers.get('content-encoding')).toBeNull();
    expect(await events.text()).toContain('data: xxx');
    const json = await fetch(`http://127.0.0.1:${port}/json`, { headers: GZIP });
    expect(json.headers.get('content-encoding')).toBe('gzip');
  });
});
