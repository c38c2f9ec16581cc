import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { freePort } from '@shop/shared/db/free-port';
import { closeServer, loopbackServers } from '@shop/test-support/loopback-servers';
import { startTestShop, type TestShop } from '@shop/test-support/test-shop';
import { waitUntil } from '@shop/test-support/wait-until';
import { createProxyGateway } from './proxy.ts';
import { SERVICE_ROUTES } from './route-table.ts';

/**
 * Issue 14: the distributed gateway forwards through http-proxy-middleware. In front of the real services (a
 * test shop stands in for every service process): the order push stream arrives unbuffered and uncompressed,
 * and a client leaving ends it at the service. An unreachable service is a 502 JSON. Connection upgrades go to
 * the owning service: none of the shop's services takes one, so a small HTTP server that does (a 101 to a
 * WebSocket upgrade, then echoing bytes; it also answers the headers it got) stands in for the order service there.
 */

let shop: TestShop;
let admin: string;
let echo: Server;
let echoPort: number;
let gateway: Server;
let base: string;
let closedPort: number;
const servers = loopbackServers();

/** What the echo service saw of the last request and upgrade. */
const seen: { headers?: IncomingHttpHeaders; url?: string } = {};

const serve = servers.serve;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await shop.login();
  echo = http.createServer((req, res) => {
    seen.headers = req.headers;
    seen.url = req.url;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ headers: req.headers }));
  });
  echo.on('upgrade', (req, socket: Socket, head: Buffer) => {
    seen.headers = req.headers;
    seen.url = req.url;
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    if (head.length > 0) socket.write(head);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as { port: number }).port;
  closedPort = await freePort();
  const services = {
    ...Object.fromEntries(Object.keys(SERVICE_ROUTES).map((name) => [name, new URL(shop.url)])),
    // The order service answers only upgrades here; the catalog is nowhere to be found.
    order: new URL(`http://127.0.0.1:${echoPort}`),
    catalog: new URL(`http://127.0.0.1:${closedPort}`),
  };
  const app = createProxyGateway({
    services,
    logger: createLogger('gateway', 'silent'),
    metrics: new Metrics('gateway'),
  });
  const listening = await serve(app);
  gateway = listening.server;
  gateway.on('upgrade', app.upgrade);
  base = listening.url;
});
afterAll(async () => {
  await servers.closeAll();
  if (echo) await closeServer(echo);
  await shop?.stop();
});

/** Sends an upgrade request to the gateway; resolves with the status and, after a 101, the socket. */
const upgrade = (path: string) =>
  new Promise<{ status: number; socket?: Socket; head?: Buffer }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'x-forwarded-for': '203.0.113.9' },
    });
    req.on('upgrade', (res, socket, head) => resolve({ status: res.statusCode ?? 0, socket, head }));
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });

describe('forwarding through http-proxy-middleware', () => {
  it('a push stream through the gateway: unbuffered, uncompressed, and ended at the service when the client leaves', async () => {
    const { url } = await serve(
      createProxyGateway({
        services: Object.fromEntries(Object.keys(SERVICE_ROUTES).map((name) => [name, new URL(shop.url)])),
        logger: createLogger('gateway', 'silent'),
        metrics: new Metrics('gateway'),
      }),
    );
    const open = async () => {
      const abort = new AbortController();
      const res = await fetch(`${url}/api/orders/stream`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${admin}`, 'accept-encoding': 'gzip, br' },
        signal: abort.signal,
      });
      return { res, close: () => abort.abort() };
    };
    // The order service holds at most 5 streams per account: 5 open through the gateway, the 6th refused.
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await open());
    const { res } = streams[0]!;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('content-encoding')).toBeNull();
    // `ready` arrives while the stream stays open: nothing waits for the end of the body.
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += value;
    }
    expect(streams.map((s) => s.res.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await open();
    expect(sixth.res.status).toBe(429);
    // Clients leaving end their streams at the service too, so the account may open one again.
    for (const s of streams) s.close();
    await waitUntil(async () => {
      const again = await open();
      again.close();
      return again.res.status === 200;
    }, 'a new stream once the clients left');
  });

  it('a service that cannot be reached: 502 with a JSON message', async () => {
    const r = await fetch(`${base}/api/products?category=Men`);
    expect(r.status).toBe(502);
    expect(await r.json()).toEqual({ message: 'Service temporarily unavailable, please try again' });
  });

  it('forwards who asked (X-Forwarded-For appended, X-Forwarded-Host, the request id) and no hop-by-hop header', async () => {
    // node:http, since fetch refuses to send hop-by-hop headers.
    const r = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`${base}/api/orders/mine`, {
          headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'req-forward-1', 'keep-alive': 'timeout=5' },
        })
        .on('response', (res) => resolve(res.resume()))
        .on('error', reject),
    );
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-request-id']).toBe('req-forward-1');
    expect(seen.url).toBe('/api/orders/mine');
    expect(seen.headers).toMatchObject({
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-host': new URL(base).host,
      'x-request-id': 'req-forward-1',
    });
    expect(seen.headers?.['keep-alive']).toBeUndefined();
  });

  it('a connection upgrade under a service path goes to that service; bytes flow both ways', async () => {
    const { status, socket } = await upgrade('/api/orders/socket');
    expect(status).toBe(101);
    expect(seen.url).toBe('/api/orders/socket');
    expect(seen.headers).toMatchObject({ upgrade: 'websocket', 'x-forwarded-for': '203.0.113.9, 127.0.0.1' });
    let got = '';
    socket!.on('data', (d: Buffer) => (got += d.toString()));
    socket!.write('hello through the gateway');
    await waitUntil(() => got === 'hello through the gateway', 'the echo of the bytes sent');
    socket!.destroy();
  });

  it('an upgrade elsewhere is refused 404', async () => {
    expect((await upgrade('/api/nowhere')).status).toBe(404);
    expect((await upgrade('/internal/orders')).status).toBe(404);
  });
});
