import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@shop/shared/observability/logger';
import { Metrics } from '@shop/shared/observability/metrics';
import { listen } from '@shop/shared/runtime/host';
import { waitUntil } from '@shop/test-support/wait-until';
import { createHttpApp, errorHandler } from '@shop/shared/http/app';
import { loginLimits, type LoginLimitTerms } from './login-limits.ts';
import { RateLimitStore } from '@shop/shared/http/rate-limit';

/**
 * Issue 27 item 3: the account-wide lock grows. With short windows standing in for the shop's (10 failures
 * in 5 minutes, then 50 in an hour): once the short lock has passed, failures still count towards the long
 * one, which then locks for its whole window. (The shop's figures: login-limits.int.spec.ts.)
 */
const TERMS: LoginLimitTerms = {
  perAccountAndAddress: { failures: 100, windowSeconds: 60 },
  perAddress: { failures: 100, windowSeconds: 60 },
  perAccount: [
    { failures: 2, windowSeconds: 1 },
    { failures: 4, windowSeconds: 120 },
  ],
};

let server: Server;
let base: string;
beforeAll(async () => {
  const logger = createLogger('test', 'silent');
  const app = createHttpApp({ logger, metrics: new Metrics('test'), rateLimits: new RateLimitStore({ logger }) });
  app.post('/api/auth/login', loginLimits({ terms: TERMS }), (req, res) => {
    const { password } = req.body as { password?: string };
    if (password === 'right') res.json({ message: 'Login successful' });
    else res.status(401).json({ message: 'Invalid email or password' });
  });
  app.use(errorHandler(logger));
  const listening = await listen(app, 0, '127.0.0.1');
  server = listening.server;
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

const login = async (password: string) => {
  const r = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.in', password }),
  });
  return { status: r.status, retryAfter: Number(r.headers.get('retry-after')) };
};

describe('the account-wide log-in lock grows', () => {
  it('2 failures lock for the short window; 2 more after it lock for the long one; refused attempts do not count', async () => {
    expect((await login('guess-1')).status).toBe(401);
    expect((await login('guess-2')).status).toBe(401);
    const short = await login('right');
    expect(short.status).toBe(429);
    expect(short.retryAfter).toBeLessThanOrEqual(1);
    // The short lock passes (the owner's next attempt goes through), and refused attempts were given back.
    await waitUntil(async () => (await login('right')).status === 200, 'the short lock to pass', 5_000);
    await waitUntil(async () => (await login('guess-3')).status === 401, 'a counted failure', 5_000);
    expect((await login('guess-4')).status).toBe(401);
    // Past the long budget: once the short window passes again, the long lock remains, for its window.
    const long = await waitUntil(
      async () => {
        const r = await login('right');
        return r.status === 429 && r.retryAfter > 1 ? r : null;
      },
      'the long lock',
      5_000,
    );
    expect(long.retryAfter).toBeGreaterThan(100);
    expect(long.retryAfter).toBeLessThanOrEqual(120);
  });
});
