import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { GuestIdentity } from '@shop/shared/auth/guest-identity';
import { RateLimitStore } from '@shop/shared/http/rate-limit';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { closeServer } from '@shop/test-support/loopback-servers';
import { createProxyGateway } from './proxy.ts';
import { CREATE_ORDER_PATH, rawCreateOrder } from './raw-create-order.ts';
import { SERVICE_ROUTES } from './route-table.ts';

/**
 * The distributed gateway's create-order before its proxy (raw-create-order.ts in front of proxy.ts): a body it
 * read and did not answer is forwarded whole, also when more requests are in flight than the gateway keeps
 * connections to a service (the forward then waits for a pooled socket). A service that echoes what it read
 * stands in for checkout.
 */
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await closeServer(server);
});

/** A JSON POST on a connection of its own: the answer's status and body. */
function post(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A node server on a free loopback port, closed after the tests. */
async function serve(listener: RequestListener): Promise<{ url: string }> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('a create-order the gateway reads and does not answer', () => {
  it('reaches the service with its body, 400 at once (more than the pooled connections)', async () => {
    // Holds its answers until the gateway's whole pool of connections to it is busy (forward.ts: 256 sockets), so
    // the requests after those wait for a pooled socket; then answers each with the body it read.
    const POOL = 256;
    const held: Array<() => void> = [];
    let open = false;
    const service = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        held.push(() => res.end(Buffer.concat(chunks)));
        if (held.length >= POOL || open) {
          open = true;
          for (const answer of held.splice(0)) answer();
        }
      });
    });
    const services = Object.fromEntries(Object.keys(SERVICE_ROUTES).map((name) => [name, new URL(service.url)]));
    const logger = createLogger('gateway', 'silent');
    const metrics = new Metrics('gateway');
    const app = createProxyGateway({ services, logger, metrics, rateLimits: new RateLimitStore() });
    const gateway = await serve(
      rawCreateOrder({
        app,
        rules: {
          stockDecidedLines: () => [{ productId: 'p', size: null, color: null, quantity: 1 }],
          limitTerms: [],
        },
        refusalFromMemory: () => Promise.resolve(null),
        guestIdentity: new GuestIdentity('raw-create-order-proxy-spec-secret-0123456789'),
        logger,
        metrics,
        corsOrigins: [],
        asProxied: true,
      }),
    );
    const bodies = Array.from({ length: 400 }, (_, i) => JSON.stringify({ orderData: { buyer: i } }));
    const answers = await Promise.all(
      bodies.map(async (body) => {
        // A connection of its own each (no client pool): all 400 are at the gateway at once.
        const r = await post(`${gateway.url}${CREATE_ORDER_PATH}`, body);
        return r;
      }),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(answers.map((a) => a.body)).toEqual(bodies);
  });
});
