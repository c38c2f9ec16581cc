import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { keepOutput, ROOT } from '../../../scripts/distributed-processes.ts';
import { freePort } from '../../../services/shared/src/db/free-port.ts';
import { clearPreviousServer } from '../../../services/shared/src/db/postgres-process.ts';
import { waitUntil } from '@shop/test-support/wait-until';

/**
 * The embedded shop as `npm start` runs it, but as one process: node itself runs main.ts (with tsx's loader
 * in-process), so `child.pid` is the very process that holds the embedded Postgres, and `kill -9` of it is
 * the crash under test. (`tsx main.ts` would put a tsx parent in front of it.)
 */
export interface ShopProcess {
  child: ChildProcess;
  output: string[];
  port: number;
  base: string;
  exited: Promise<void>;
}

export function spawnShop(opts: {
  port: number;
  dataDir: string;
  env?: Record<string, string | undefined>;
}): ShopProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services/gateway/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      KAFKA_BROKERS: undefined,
      SERVICE_URLS: undefined,
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      RAZORPAY_KEY_ID: undefined,
      RAZORPAY_KEY_SECRET: undefined,
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output, port: opts.port, base: `http://127.0.0.1:${opts.port}`, exited };
}

/**
 * A spec file's embedded shops, on one fresh data folder (`<prefix>*` in the system's temporary folder, its
 * Postgres in `pgDir`): `spawn` starts one on it, on a free port unless given one. After the file's tests the
 * shop spawned last is stopped, whatever Postgres a failed test left running on the folder is cleared, and the
 * folder removed.
 */
export function useShopDataDir(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgDir = path.join(dataDir, 'postgres');
  let last: ShopProcess | undefined;
  afterAll(async () => {
    await stop(last);
    await clearPreviousServer(pgDir).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    pgDir,
    /** The shop spawned last (undefined before the first). */
    get shop(): ShopProcess | undefined {
      return last;
    },
    async spawn(opts: { port?: number; env?: Record<string, string | undefined> } = {}): Promise<ShopProcess> {
      last = spawnShop({ port: opts.port ?? (await freePort()), dataDir, env: opts.env });
      return last;
    },
  };
}

/** Waits for /api/health to answer 200; fails at once if the process exits. */
export async function waitHealthy(shop: ShopProcess, timeoutMs = 120_000): Promise<void> {
  await waitUntil(
    async () => {
      if (shop.child.exitCode !== null || shop.child.signalCode !== null)
        throw new Error(
          `the shop exited (${shop.child.exitCode ?? shop.child.signalCode}):\n${shop.output.join('\n')}`,
        );
      try {
        const r = await fetch(`${shop.base}/api/health`, { signal: AbortSignal.timeout(5000) });
        await r.arrayBuffer();
        return r.status === 200;
      } catch {
        return false;
      }
    },
    `the shop at ${shop.base} to be healthy`,
    timeoutMs,
  );
}

/** The embedded server's URL, from its postmaster.pid in `pgDir` (line 4: the port). */
export function embeddedDatabaseUrl(pgDir: string): string {
  const lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  return `postgres://postgres:postgres@127.0.0.1:${lines[3]!.trim()}/shop`;
}

/** kill -9 of the shop's node process only (not its process group: the embedded Postgres lives on). */
export async function crash(shop: ShopProcess): Promise<void> {
  shop.child.kill('SIGKILL');
  await shop.exited;
}

/** SIGTERM, then wait for the process to exit. */
export async function stop(shop: ShopProcess | undefined): Promise<void> {
  if (!shop || shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  shop.child.kill('SIGTERM');
  await shop.exited;
}

/** The pid of the embedded Postgres watchdog that watches parentPid (Linux: read from /proc). */
export function watchdogOf(parentPid: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const i = args.indexOf('shop-postgres-watchdog');
    if (i >= 0 && args[i + 1] === String(parentPid)) return Number(entry);
  }
  return undefined;
}
