import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  SERVICES,
  startCrashableDistributed,
  type CrashableDistributedShop,
  type Proc,
} from '../../scripts/distributed-processes.ts';
import { httpClient } from '@shop/test-support/http';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { attempt, exitOf, openSse, probeWhileStopping, type Outcome } from './support/graceful-stop.ts';
import { freePortRun } from '@shop/test-support/port-run';
import { adminToken, createProduct, DEFAULT_ADMIN, saleProduct } from './support/sale.ts';

/**
 * Issue 13, distributed mode: SIGTERM to one service process (order) and then to the gateway, each while a
 * push stream is open through the gateway and a burst of requests is in flight. Every request gets a complete
 * answer, the stream ends cleanly (the order service's last `closing` event; the gateway ends the streams it
 * proxies), new connections are refused or told "Shutting down", and the process exits 0.
 */
const BURST = 40;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-shutdown-dist-'));
let db: TestDatabase | undefined;
let shop: CrashableDistributedShop | undefined;

afterAll(async () => {
  await shop?.stop();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * SIGTERM to `proc` while a burst is in flight; what every request got, the probes, and the exit code. A first
 * burst opens the keep-alive connections, so the second one reaches the process at once rather than while
 * its connections are still being made.
 */
async function terminateDuring(proc: Proc, probeUrl: string, makeBurst: () => Array<Promise<Outcome>>) {
  const warm = await Promise.all(makeBurst());
  expect(warm.filter((o) => o.status !== 200)).toEqual([]);
  const burst = makeBurst();
  await Promise.race(burst);
  const exited = exitOf(proc.child);
  const signalledAt = performance.now();
  proc.child.kill('SIGTERM');
  const probes = probeWhileStopping(probeUrl, exited);
  const outcomes = await Promise.all(burst);
  const code = await exited;
  const ms = Math.round(performance.now() - signalledAt);
  return { outcomes, code, ms, seen: await probes, signalledAt };
}

/**
 * A clean stop of `service`: every request of the burst answered (its own answer or 503 "Shutting down"), some
 * still answered 200 after the signal, the probes answered 503 "Shutting down" by this service or refused, exit
 * 0, and nothing cut at the shutdown bound.
 */
function expectStoppedCleanly(service: string, stopped: Awaited<ReturnType<typeof terminateDuring>>, proc: Proc) {
  const { outcomes, seen } = stopped;
  console.log(
    `[shutdown ${service}] ${outcomes.filter((o) => o.status === 200).length} x 200, ` +
      `${outcomes.filter((o) => o.status === 503).length} x 503; exit ${stopped.code} after ${stopped.ms} ms; ` +
      `probes ${seen.shuttingDown.length} x 503, ${seen.refused} refused, ${seen.resetAtClose} reset at close`,
  );
  expectAnswered(outcomes, [200]);
  expect(outcomes.filter((o) => o.status === 200 && o.at > stopped.signalledAt).length).toBeGreaterThan(0);
  expect(seen.other, JSON.stringify(seen.other)).toEqual([]);
  for (const o of seen.shuttingDown)
    expect(o.body).toEqual({ status: 'shutting down', service, message: 'Shutting down' });
  expect(stopped.code).toBe(0);
  expect(proc.output.join('\n')).not.toContain('requests still in flight at the shutdown bound');
}

function expectAnswered(outcomes: Outcome[], ok: number[]) {
  for (const o of outcomes) {
    if (o.status === 503) {
      expect(o.body, JSON.stringify(o)).toEqual({ message: 'Shutting down' });
      expect(o.connection).toBe('close');
    } else expect(ok, JSON.stringify(o)).toContain(o.status);
  }
}

describe('SIGTERM in distributed mode', () => {
  it('a service process (order) and the gateway each answer what is in flight, end push streams cleanly, and exit 0', async () => {
    db = await createTestDatabase({ migrate: false });
    const { gatewayPort, firstServicePort } = await freePortRun();
    shop = await startCrashableDistributed({
      env: {
        DATABASE_URL: db.url,
        REDIS_URL: inject('redisUrl'),
        KAFKA_BROKERS: inject('kafkaBrokers'),
        DATA_DIR: dataDir,
        ADMIN_EMAIL: undefined,
        ADMIN_PASSWORD: undefined,
        RAZORPAY_KEY_ID: undefined,
        RAZORPAY_KEY_SECRET: undefined,
        LOG_LEVEL: 'warn',
      },
      gatewayPort,
      firstServicePort,
    });
    const base = `http://127.0.0.1:${gatewayPort}`;
    const orderPort = firstServicePort + SERVICES.findIndex((s) => s.name === 'order');
    const api = httpClient(base);
    const token = await adminToken(api, DEFAULT_ADMIN);
    const streamUrl = `${base}/api/orders/stream?access_token=${encodeURIComponent(token)}`;
    const openStream = async () => {
      const sse = await openSse(streamUrl);
      await waitUntil(() => sse.events.includes('stats'), 'the stream to be ready', 30_000);
      return sse;
    };

    // 1. The order service, with a stream open through the gateway and a burst of admin order reads to it.
    const first = await openStream();
    const reads = () =>
      Array.from({ length: BURST }, () =>
        attempt(`http://127.0.0.1:${orderPort}/api/orders/admin/all`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const order = await terminateDuring(shop.proc('order'), `http://127.0.0.1:${orderPort}/api/health`, reads);
    expect(await first.finished).toBe('ended');
    expect(first.events.at(-1)).toBe('closing');
    expectStoppedCleanly('order', order, shop.proc('order'));

    // 2. The gateway, with the order service back, a stream open through it and a burst of catalogue reads.
    await shop.restart('order');
    const second = await openStream();
    const productId = await createProduct(api, token, saleProduct('Gateway Kurta', 100));
    const burst = () =>
      Array.from({ length: BURST }, (_, n) =>
        n % 2 ? attempt(`${base}/api/products/${productId}`) : attempt(`${base}/api/products`),
      );
    const gateway = await terminateDuring(shop.proc('gateway'), `${base}/api/health`, burst);
    expect(await second.finished).toBe('ended');
    expectStoppedCleanly('gateway', gateway, shop.proc('gateway'));
  });
});
