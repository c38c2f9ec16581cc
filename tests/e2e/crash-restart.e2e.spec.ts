import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPostgresOn, isProcessAlive, readPostmasterPid } from '../../services/shared/src/db/postgres-process.ts';
import { httpClient } from '@shop/test-support/http';
import { waitUntil } from '@shop/test-support/wait-until';
import { crash, stop, useShopDataDir, waitHealthy, watchdogOf, type ShopProcess } from './support/shop-process.ts';

// Issue 15, defects 3 (a crashed shop could not start again) and 5 (requests during start-up hung).
// The tests run in order on one data folder.
const shops = useShopDataDir('shop-crash-');
const { pgDir } = shops;
const shopper = { name: 'Asha', email: 'asha@example.in', phone: '+919822222222', password: 'asha-pass-1' };
let productCount = 0;

async function startAgain(): Promise<ShopProcess> {
  const shop = await shops.spawn();
  await waitHealthy(shop);
  return shop;
}

/** The data made before the crash is all there. */
async function expectDataKept(s: ShopProcess) {
  const api = httpClient(s.base);
  const login = await api('POST', '/api/auth/login', { body: { email: shopper.email, password: shopper.password } });
  expect(login.status).toBe(200);
  const products = await api<unknown[]>('GET', '/api/products');
  expect(products.body.length).toBe(productCount);
}

describe('a shop process that crashes or is still starting (embedded default)', () => {
  it('answers 503 Starting with Retry-After while it starts (first start: initdb, migrations, seed), then 200', async () => {
    const s = await shops.spawn();
    let starting = 0;
    let otherPath: { status: number; retryAfter: string | null; body: unknown } | undefined;
    await waitUntil(
      async () => {
        if (s.child.exitCode !== null) throw new Error(`the shop exited:\n${s.output.join('\n')}`);
        let r: Response;
        try {
          // a short client timeout: a request that is accepted and never answered fails the test
          r = await fetch(`${s.base}/api/health`, { signal: AbortSignal.timeout(5000) });
        } catch (err) {
          if ((err as Error).name === 'TimeoutError')
            throw new Error(`GET /api/health hung during start-up (no answer in 5 s)`, { cause: err });
          return false; // refused: not listening yet
        }
        const body = (await r.json()) as { status: string };
        if (r.status === 200) return true;
        expect(r.status).toBe(503);
        expect(body).toMatchObject({ status: 'starting', service: 'shop' });
        expect(r.headers.get('retry-after')).toBe('1');
        starting++;
        if (!otherPath) {
          const o = await fetch(`${s.base}/api/products`, { signal: AbortSignal.timeout(5000) });
          otherPath = { status: o.status, retryAfter: o.headers.get('retry-after'), body: await o.json() };
        }
        return false;
      },
      'the shop to start',
      150_000,
    );
    expect(starting).toBeGreaterThan(0);
    expect(otherPath).toEqual({ status: 503, retryAfter: '1', body: { message: 'Starting' } });

    const api = httpClient(s.base);
    expect((await api('POST', '/api/auth/register', { body: shopper })).status).toBe(201);
    productCount = (await api<unknown[]>('GET', '/api/products')).body.length;
    expect(productCount).toBeGreaterThan(0);
  });

  it('kill -9 of the node process: its watchdog stops the orphaned Postgres, and the shop starts again with its data', async () => {
    const nodePid = shops.shop!.child.pid!;
    const pgPid = readPostmasterPid(pgDir)!;
    expect(isPostgresOn(pgPid, pgDir)).toBe(true);
    expect(watchdogOf(nodePid)).toBeDefined();

    await crash(shops.shop!);
    await waitUntil(
      () => !isProcessAlive(pgPid) && !fs.existsSync(path.join(pgDir, 'postmaster.pid')),
      'the watchdog to stop the orphaned Postgres (cleanly: postmaster.pid removed)',
      30_000,
    );

    await expectDataKept(await startAgain());
  });

  it('kill -9 of the node process and its watchdog: the next start stops the orphaned Postgres itself', async () => {
    const nodePid = shops.shop!.child.pid!;
    const pgPid = readPostmasterPid(pgDir)!;
    const watchdog = watchdogOf(nodePid)!;
    expect(watchdog).toBeDefined();
    process.kill(watchdog, 'SIGKILL');
    await waitUntil(() => !isProcessAlive(watchdog), 'the watchdog to die');
    await crash(shops.shop!);
    // the orphan holds the data folder, as it did before the fix ("lock file postmaster.pid already exists")
    expect(isProcessAlive(pgPid) && isPostgresOn(pgPid, pgDir)).toBe(true);

    const again = await startAgain();
    expect(isProcessAlive(pgPid)).toBe(false);
    expect(readPostmasterPid(pgDir)).not.toBe(pgPid);
    await expectDataKept(again);
  });

  it('a postmaster.pid naming a live process that is not its server (a reused pid) does not stop a start', async () => {
    const nodePid = shops.shop!.child.pid!;
    const pgPid = readPostmasterPid(pgDir)!;
    const watchdog = watchdogOf(nodePid)!;
    await stop(shops.shop);
    // a clean stop takes Postgres and the watchdog with it
    expect(isProcessAlive(pgPid)).toBe(false);
    await waitUntil(() => !isProcessAlive(watchdog), 'the watchdog to exit');

    // A live process that is not a postgres, owned by the user the server runs as (as root: `postgres`), so
    // the server can signal it and takes it for a running server ("lock file ... already exists").
    const asServerUser =
      process.getuid?.() === 0
        ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) }
        : {};
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', ...asServerUser });
    try {
      await waitUntil(() => other.pid !== undefined && isProcessAlive(other.pid), 'the other process to run');
      fs.writeFileSync(path.join(pgDir, 'postmaster.pid'), `${other.pid}\n${pgDir}\n`);
      await expectDataKept(await startAgain());
      expect(isProcessAlive(other.pid!)).toBe(true); // left alone
    } finally {
      other.kill('SIGKILL');
    }
  });
});
