import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireAuth, TokenService } from '../auth/tokens.ts';
import { createLogger } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import { listen } from '../runtime/host.ts';
import { ConflictError, RefusedError } from '../errors/errors.ts';
import { createHttpApp, errorHandler } from './app.ts';

/**
 * Issue 27 item 4: a 4xx on a URL carrying ?access_token= (six open push streams) wrote the whole 7-day
 * admin JWT to the log. The request log of every process (createHttpApp's) keeps no credential.
 */

const tokens = new TokenService('a-test-secret-that-is-long-enough-for-hs256');
const adminToken = tokens.sign({ id: 'admin-1', email: 'admin@example.in', name: 'Admin', isAdmin: true });
const lines: Array<Record<string, unknown>> = [];
const metrics = new Metrics('test');
let server: Server;
let base: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('test', 'info', sink);
  const app = createHttpApp({ logger, metrics });
  app.use(tokens.authenticate());
  // As the order service's stream answers the seventh stream of one account.
  app.get('/api/orders/stream', requireAuth, (_req, res) => void res.status(429).json({ message: 'Too many' }));
  // As a sold-out create-order: a business refusal (409) thrown by the handler.
  app.post('/api/refuse', () => {
    throw new RefusedError('Not enough stock', 'Kurta only has 0 item(s) available. You requested 1.');
  });
  app.post('/api/conflict', () => {
    throw new ConflictError('Version conflict');
  });
  app.use(errorHandler(logger, metrics));
  const listening = await listen(app, 0, '127.0.0.1');
  server = listening.server;
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

/** The log lines written for the request that answered with request id `id`. */
const linesOf = async (id: string) => {
  let found: Array<Record<string, unknown>> = [];
  const deadline = Date.now() + 5000;
  while (found.length === 0 && Date.now() < deadline) {
    found = lines.filter((l) => l.reqId === id);
    if (found.length === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return found;
};

describe('the request log keeps no credential', () => {
  it('a 4xx on the push stream with ?access_token= logs the URL with the token redacted', async () => {
    for (const [query, status] of [
      [`?access_token=${adminToken}`, 429],
      [
        `?ticket=${tokens.signStreamTicket({ id: 'admin-1', email: 'a@example.in', name: 'A', isAdmin: true })}&x=1`,
        429,
      ],
      [`?access_token=${adminToken.slice(0, -2)}xx`, 401],
    ] as const) {
      const r = await fetch(`${base}/api/orders/stream${query}`, { headers: { cookie: 'kapda_device=secret-value' } });
      expect(r.status).toBe(status);
      const logged = await linesOf(r.headers.get('x-request-id')!);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 40, status, msg: 'request completed' });
      expect(logged[0]!.url).toMatch(/^\/api\/orders\/stream\?(access_token|ticket)=\[redacted\]/);
      const text = JSON.stringify(logged);
      expect(text).not.toContain(adminToken.split('.')[2]!);
      expect(text).not.toMatch(/eyJ/);
      expect(text).not.toContain('secret-value');
    }
  });
});

describe('a business refusal is counted, not logged as a warning', () => {
  it('a RefusedError (409) counts in refusals_total{by="app"} and logs at debug only; another 409 still warns', async () => {
    const refused = await fetch(`${base}/api/refuse`, { method: 'POST' });
    expect(refused.status).toBe(409);
    const conflict = await fetch(`${base}/api/conflict`, { method: 'POST' });
    expect(conflict.status).toBe(409);
    // The other request's warn line is written once the refused one's would have been (same logger, in order).
    expect(await linesOf(conflict.headers.get('x-request-id')!)).toMatchObject([{ level: 40, status: 409 }]);
    expect(lines.filter((l) => l.reqId === refused.headers.get('x-request-id'))).toEqual([]);
    const counted = (await metrics.refusals.get()).values;
    expect(counted).toEqual([{ labels: { route: '/api/refuse', by: 'app' }, value: 1 }]);
  });
});
