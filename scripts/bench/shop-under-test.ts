/** Starts the shop for a benchmark in either run mode, as separate processes from the load generator. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createFreshDatabase } from '@shop/test-support/fresh-database';
import { startMockKafka } from '@shop/test-support/kafka-broker';
import { freePortRun } from '@shop/test-support/port-run';
import { Stops } from '@shop/test-support/stops';
import { startDistributed, startProcess, waitForHealthy, type Proc } from '../distributed-processes.ts';
export { freePort } from '../../services/shared/src/db/free-port.ts';
import { startEmbeddedPostgres } from '../../services/shared/src/db/embedded-postgres.ts';

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
 * KAFKA_BROKERS (default a mock broker started here). `countStatements` (embedded): the shop's Postgres loads
 * pg_stat_statements (the machine's Postgres of distributed mode is left as it is).
 */
export async function startShopUnderTest(
  mode: string,
  extraEnv: Record<string, string> = {},
  opts: { countStatements?: boolean } = {},
): Promise<ShopUnderTest> {
  const stops = new Stops((e: unknown) => console.error('cleanup:', e));
  const dataDir = stops.tempDir('bench-shop-');
  // Ports below the ephemeral range, free as a run: a port the OS picked (freePort) can be taken by an
  // outgoing connection before the shop binds it, which failed the run after a heavy one with EADDRINUSE.
  const ports = await freePortRun();
  const port = ports.gatewayPort;
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
      const shop = await startDistributed({ env, ...ports });
      stops.push(shop.stop);
    } else {
      if (opts.countStatements) await preparePostgres(path.join(dataDir, 'postgres'));
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

/**
 * Creates the embedded shop's Postgres data folder before the shop starts, set to load pg_stat_statements
 * (ALTER SYSTEM, read at the next start: the shop's), so that the benchmark can count the SQL statements a
 * purchase costs. The shop then starts this server on its data as it would a server it had created; only the
 * preload differs (its bookkeeping per statement is part of the Postgres CPU the benchmark measures).
 */
async function preparePostgres(dataDir: string): Promise<void> {
  const server = await startEmbeddedPostgres({ dataDir, database: 'shop' });
  try {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    await client.end();
  } finally {
    await server.stop();
  }
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
