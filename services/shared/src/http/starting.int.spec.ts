import { afterEach, describe, expect, it } from 'vitest';
import { listenWhileStarting, type StartingServer } from './starting.ts';

let listening: StartingServer | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

describe('listenWhileStarting', () => {
  it('answers 503 Starting with Retry-After on every path until ready, then hands requests to the app', async () => {
    listening = await listenWhileStarting(0, '127.0.0.1', 'catalog');
    const base = `http://127.0.0.1:${listening.port}`;
    const ask = (path: string, init?: RequestInit) =>
      fetch(base + path, { ...init, signal: AbortSignal.timeout(2000) });

    const health = await ask('/api/health');
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('1');
    expect(await health.json()).toEqual({ status: 'starting', service: 'catalog', message: 'Starting' });

    for (const [method, path] of [
      ['GET', '/api/products?x=1'],
      ['POST', '/api/auth/login'],
      ['GET', '/'],
    ] as const) {
      const r = await ask(path, {
        method,
        body: method === 'POST' ? JSON.stringify({ email: 'a@b.c', password: 'x' }) : undefined,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : undefined,
      });
      expect(r.status, `${method} ${path}`).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(await r.json()).toEqual({ message: 'Starting' });
    }

    listening.ready((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    });
    const ready = await ask('/api/health');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  });
});
