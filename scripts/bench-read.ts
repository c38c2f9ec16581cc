/**
 * Read benchmark: GET /api/products (40 listed products) with autocannon at 100 connections, side by side
 * in the same run with a bare express route serving the same JSON bytes from memory (the ceiling).
 *
 *   npm run bench:read                      # embedded default (one process, embedded Postgres)
 *   npm run bench:read -- --mode distributed  # gateway + services as processes, Redis, Kafka
 *
 * Distributed mode uses DATABASE_URL / REDIS_URL / KAFKA_BROKERS when set, else the machine's Postgres and
 * Redis on their default ports and a Kafka mock broker it starts. Prints figures; never fails on them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { startMockKafka } from '../tests/support/kafka-broker.ts';
import { ROOT, startDistributed, startProcess, waitForHealthy, type Proc } from './distributed-processes.ts';

const args = process.argv.slice(2);
const mode = args.includes('--mode') ? args[args.indexOf('--mode') + 1] : 'embedded';
const duration = Number(args.includes('--duration') ? args[args.indexOf('--duration') + 1] : 10);
const connections = 100;
const ADMIN = { email: 'bench-admin@shop.local', password: 'bench-admin-pass' };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function run(url: string, title: string) {
  // warm-up, then the measured run
  await autocannon({ url, connections, duration: 2 });
  const r = await autocannon({ url, connections, duration, title });
  return {
    title,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    bytes: r.throughput.average,
  };
}

const stops: Array<() => Promise<void>> = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-read-'));
try {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'bench-secret-bench-secret',
  };
  if (mode === 'distributed') {
    const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const dbName = `bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    stops.push(async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    });
    const u = new URL(server);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
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
    env.DATABASE_URL = undefined;
    env.REDIS_URL = undefined;
    env.KAFKA_BROKERS = undefined;
    const proc: Proc = startProcess('shop', 'services/gateway/src/main.ts', { ...env, PORT: String(port) });
    stops.push(async () => {
      proc.child.kill('SIGTERM');
      await new Promise((r) => proc.child.once('exit', r));
    });
    await waitForHealthy(`http://127.0.0.1:${port}/api/health`, proc, 120_000);
  }
  const base = `http://127.0.0.1:${port}`;

  // Make exactly 40 listed products: the demo catalog plus a few more.
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };
  let listed = ((await (await fetch(`${base}/api/products`)).json()) as unknown[]).length;
  for (let i = listed; i < 40; i++) {
    const r = await fetch(`${base}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: `Bench Tee ${i}`,
        price: 499 + i,
        quantity: 10,
        category: 'Men',
        sizeQuantities: { S: 1, M: 2, L: 3 },
      }),
    });
    if (r.status !== 201) throw new Error(`create failed: ${r.status} ${await r.text()}`);
  }
  const bytes = Buffer.from(await (await fetch(`${base}/api/products`)).arrayBuffer());
  listed = (JSON.parse(bytes.toString()) as unknown[]).length;

  const bodyFile = path.join(dataDir, 'products.json');
  fs.writeFileSync(bodyFile, bytes);
  const barePort = await freePort();
  const bareProc = spawn(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [path.join(ROOT, 'scripts/bench/bare-server.ts'), bodyFile, String(barePort)],
    { stdio: 'ignore' },
  );
  stops.push(async () => void bareProc.kill('SIGTERM'));
  await waitForHealthy(`http://127.0.0.1:${barePort}/api/products`, { name: 'bare', child: bareProc, output: [] });

  const ceiling = await run(`http://127.0.0.1:${barePort}/api/products`, 'bare express, bytes from memory');
  const shop = await run(`${base}/api/products`, `shop (${mode})`);

  const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
  console.log(
    `\nbench-read: GET /api/products, ${listed} products, ${bytes.length} bytes, ${connections} connections, ${duration} s`,
  );
  console.log(
    `machine: ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  console.log('| run | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of [ceiling, shop])
    console.log(`| ${r.title} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  console.log(
    `shop / ceiling: ${((shop.rps / ceiling.rps) * 100).toFixed(1)}% (target >= 60%), shop p99 ${shop.p99} ms (target < 30 ms)`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch((e: unknown) => console.error('cleanup:', e));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
