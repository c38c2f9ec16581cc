import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../services/shared/src/db/free-port.ts';
import { waitUntil } from '@shop/test-support/wait-until';
import { attempt, type Outcome } from './support/graceful-stop.ts';
import { useShopDataDir } from './support/shop-process.ts';

/**
 * Issue 13: requests made from the first moment of start-up all get an answer within a second. The shop
 * starts on a fresh DATA_DIR (initdb, migrations, the demo catalogue's seed); from the moment its port
 * accepts a connection, /api/health and /api/products are asked over and over, each with a 1 s client
 * timeout, until both answer 200. Every request must be answered: 503 "Starting" with Retry-After, then 200.
 */
const CLIENT_TIMEOUT_MS = 1000;

const shops = useShopDataDir('shop-startup-');

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

interface Asked extends Outcome {
  path: string;
  ms: number;
}

describe('start-up of the shop on a fresh data folder (embedded default)', () => {
  it('answers every request from the moment its port accepts within a second: 503 Starting with Retry-After, then 200', async () => {
    const port = await freePort();
    const s = await shops.spawn({ port });
    const spawnedAt = performance.now();
    await waitUntil(
      async () => {
        if (s.child.exitCode !== null) throw new Error(`the shop exited:\n${s.output.join('\n')}`);
        return accepts(port);
      },
      'the port to accept connections',
      60_000,
    );
    const acceptedAt = performance.now();

    const asked: Asked[] = [];
    const poll = (p: string) =>
      waitUntil(
        async () => {
          if (s.child.exitCode !== null) throw new Error(`the shop exited:\n${s.output.join('\n')}`);
          const t = performance.now();
          const o = await attempt(`${s.base}${p}`, { timeoutMs: CLIENT_TIMEOUT_MS });
          asked.push({ ...o, path: p, ms: performance.now() - t });
          return o.status === 200;
        },
        `${p} to answer 200`,
        120_000,
      );
    await Promise.all([poll('/api/health'), poll('/api/products')]);

    const longest = Math.max(...asked.map((a) => a.ms));
    const starting = asked.filter((a) => a.status === 503).length;
    console.log(
      `[startup] port accepted ${Math.round(acceptedAt - spawnedAt)} ms after spawn; ${asked.length} requests ` +
        `(${starting} x 503 Starting) until ready ${Math.round(performance.now() - acceptedAt)} ms later; ` +
        `longest answer ${Math.round(longest)} ms`,
    );
    const unanswered = asked.filter((a) => typeof a.status !== 'number');
    expect(unanswered, JSON.stringify(unanswered.slice(0, 5))).toEqual([]);
    for (const a of asked) {
      if (a.status === 200) continue;
      expect(a.status, JSON.stringify(a)).toBe(503);
      expect(a.retryAfter).toBe('1');
      expect(a.body).toEqual(
        a.path === '/api/health'
          ? { status: 'starting', service: 'shop', message: 'Starting' }
          : { message: 'Starting' },
      );
    }
    expect(starting).toBeGreaterThan(0);
  });
});
