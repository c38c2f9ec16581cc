import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startTestRedis } from '@shop/test-support/redis-server';
import { waitUntil } from '@shop/test-support/wait-until';
import { createLogger } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import { listen } from '../runtime/host.ts';
import { createHttpApp, errorHandler } from './app.ts';
import { rateLimit, RateLimitStore } from './rate-limit.ts';

/**
 * Issue 13: rate limits counted in Redis are shared by every process of the shop; without Redis (or while it
 * is away) each process counts in its own memory and requests are never failed for it.
 */

const servers: Server[] = [];
const stores: RateLimitStore[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const s of stores) await s.close();
});

const silent = createLogger('test', 'silent');
const MESSAGE = 'Too many payment attempts, please try again in a minute';

/** One "process": its own app, its own store (its own Redis connection, or its own memory). */
async function startProcess(store?: RateLimitStore): Promise<string> {
  if (store) stores.push(store);
  // Until its connection is up a store counts in memory, as while Redis is away.
  if (store?.shared) await waitUntil(() => store.sharing, 'the limiter connected to Redis');
  const app = createHttpApp({ logger: silent, metrics: new Metrics('test'), rateLimits: store });
  app.post(
    '/api/payment/create-order',
    rateLimit({ name: 'payment', windowMs: 60_000, max: 3, message: MESSAGE }),
    (_req, res) => void res.status(201).json({ ok: true }),
  );
  app.use(errorHandler(silent));
  const { server, port } = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${port}`;
}

const pay = async (base: string, from = '203.0.113.7') => {
  const r = await fetch(`${base}/api/payment/create-order`, { method: 'POST', headers: { 'x-forwarded-for': from } });
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { message?: string } };
};

describe('rate limits shared through Redis', () => {
  it('two processes with their own Redis connections share one count per client', async () => {
    const namespace = randomUUID();
    const a = await startProcess(new RateLimitStore({ redis: inject('redisUrl'), namespace, logger: silent }));
    const b = await startProcess(new RateLimitStore({ redis: inject('redisUrl'), namespace, logger: silent }));
    expect([(await pay(a)).status, (await pay(b)).status, (await pay(a)).status]).toEqual([201, 201, 201]);
    for (const base of [b, a]) {
      const refused = await pay(base);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: MESSAGE });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Another client address has its own budget, on either process.
    expect((await pay(b, '198.51.100.20')).status).toBe(201);
  });

  it('shops with different namespaces on one Redis do not share counts', async () => {
    const a = await startProcess(new RateLimitStore({ redis: inject('redisUrl'), namespace: randomUUID() }));
    const b = await startProcess(new RateLimitStore({ redis: inject('redisUrl'), namespace: randomUUID() }));
    for (let i = 0; i < 3; i++) expect((await pay(a)).status).toBe(201);
    expect((await pay(a)).status).toBe(429);
    expect((await pay(b)).status).toBe(201);
  });

  it('without Redis each process counts alone, in memory', async () => {
    const a = await startProcess(new RateLimitStore());
    const b = await startProcess();
    for (let i = 0; i < 3; i++) expect((await pay(a)).status).toBe(201);
    expect((await pay(a)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await pay(b)).status).toBe(201);
    expect((await pay(b)).status).toBe(429);
  });

  it('while Redis is unreachable requests are not failed: the limit counts in memory (insurance) meanwhile', async () => {
    const redis = await startTestRedis();
    const store = new RateLimitStore({ redis: redis.url, namespace: randomUUID(), logger: silent });
    const base = await startProcess(store);
    expect((await pay(base)).status).toBe(201); // counted in Redis
    await redis.stop();
    // Once the connection has noticed, every count goes to memory.
    await waitUntil(() => !store.sharing, 'the limiter to notice Redis has gone');
    const answers: number[] = [];
    for (let i = 0; i < 3; i++) answers.push((await pay(base)).status);
    const refused = await pay(base);
    expect(answers).toEqual([201, 201, 201]);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: MESSAGE });
  });
});
