import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import { listen } from '../runtime/host.ts';
import { createHttpApp } from './app.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** The client address an app with this TRUST_PROXY sees for a request carrying X-Forwarded-For. */
async function clientAddress(trustProxy: string | undefined, forwardedFor: string): Promise<string> {
  const app = createHttpApp({ logger: createLogger('test', 'silent'), metrics: new Metrics('test'), trustProxy });
  app.get('/ip', (req, res) => void res.json({ ip: req.ip }));
  const { server, port } = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  const r = await fetch(`http://127.0.0.1:${port}/ip`, { headers: { 'x-forwarded-for': forwardedFor } });
  return ((await r.json()) as { ip: string }).ip;
}

// Rate limits and the guest caps on checkouts and coupon holds (issue 15, defect 4) key on req.ip: behind the
// gateway on another host (docker compose) a service must take the address the gateway saw, not the gateway's.
describe('TRUST_PROXY: whose X-Forwarded-For gives the client address', () => {
  it('by default believes proxies on loopback only, as on one machine', async () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback');
    expect(await clientAddress(undefined, '203.0.113.9, 127.0.0.5')).toBe('203.0.113.9');
  });

  it('1 takes the address the nearest proxy appended, so a client cannot pass off an address of its choosing', async () => {
    // the gateway appends the address it saw (here 198.51.100.7) to what the client sent (203.0.113.9)
    expect(await clientAddress('1', '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
    expect(await clientAddress('loopback', '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
    expect(await clientAddress('1', '203.0.113.9, 127.0.0.5')).toBe('127.0.0.5');
  });

  it('refuses a value Express could not use', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'every one!' })).toThrow('TRUST_PROXY');
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
  });
});
