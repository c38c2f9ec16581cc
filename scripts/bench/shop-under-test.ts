/** Starts the shop for a benchmark in either run mode, as separate processes from the load generator. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { startMockKafka } from '@shop/test-support/kafka-broker';
import { Stops } from '@shop/test-support/stops';
import { startDistributed, startProcess, waitForHealthy, type Proc } from '../distributed-processes.ts';
export { freePort } from '../../services/shared/src/db/free-port.ts';
import { freePort } from '../../services/shared/src/db/free-port.ts';

export const BENCH_ADMIN = { email: 'bench-admin@shop.local', password: 'bench-admin-pass' };

export interface ShopUnderTest {
  base: string;
  /** Postgres the shop uses (for reading events and the reference loop). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * embedded: one process, embedded Postgres in a temp folder. distributed: gateway + services as processes on
 * a fresh database of DATABASE_URL (default the machine's Postgres), REDIS_URL (default local Redis) and
 * KAFKA_BROKERS (default a mock broker started here).
 */
export async function startShopUnderTest(mode: string, extraEnv: Record<string, string> = {}): Promise<ShopUnderTest> {
  const stops = new Stops((e: unknown) => console.error('cleanup:', e));
  const dataDir = stops.tempDir('bench-shop-');
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    JWT_SECRET: 'bench-secret-bench-secret',
    ...extraEnv,
  };
  let databaseUrl: string;
  try {
    if (mode === 'distributed') {
      const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
      const database = await createFreshDatabase(server, `bench_${Date.now()}`);
      stops.push(database.drop);
      databaseUrl = database.url;
      env.DATABASE_URL = databaseUrl;
      env.REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
      let brokers = process.env.KAFKA_BROKERS;
      if (!brokers) {
        const k = await startMockKafka();
        stops.push(k.stop);
        brokers = k.brokers;
      }
      env.KAFKA_BROKERS = brokers;
      const shop = await startDistributed({ env, gatewayPort: port, firstServicePort: await freePort() });
      stops.push(shop.stop);
    } else {
      const shopEnv = {
        ...env,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        KAFKA_BROKERS: undefined,
        PORT: String(port),
      };
      // BENCH_CPU_PROF=<dir>: the shop writes a CPU profile there when it stops (node --cpu-prof).
      const profileDir = process.env.BENCH_CPU_PROF;
      const proc: Proc = profileDir
        ? startProcess('shop', 'services/gateway/src/main.ts', shopEnv, false, [
            '--cpu-prof',
            `--cpu-prof-dir=${path.resolve(profileDir)}`,
          ])
        : startProcess('shop', 'services/gateway/src/main.ts', shopEnv);
      stops.push(async () => {
        if (proc.child.exitCode !== null) return;
        proc.child.kill('SIGTERM');
        await new Promise((r) => proc.child.once('exit', r));
      });
      await waitForHealthy(`http://127.0.0.1:${port}/api/health`, proc, 120_000);
      const pgDir = path.join(dataDir, 'postgres', 'postmaster.pid');
      const pgPort = fs.readFileSync(pgDir, 'utf8').split('\n')[3];
      databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/shop`;
    }
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
  return { base: `http://127.0.0.1:${port}`, databaseUrl, stop: () => stops.stopAll() };
}

export async function adminToken(base: string): Promise<string> {
  const r = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!r.ok) throw new Error(`admin login failed: ${r.status}`);
  return ((await r.json()) as { token: string }).token;
}

/** p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function machineLine(): string {
  return `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}
