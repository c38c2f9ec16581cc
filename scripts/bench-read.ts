/**
 * Read benchmark: GET /api/products (40 listed products) with autocannon at 100 connections, side by side
 * in the same run with a bare express route serving the same JSON bytes from memory (the ceiling).
 *
 *   npm run bench:read                      # embedded default (one process, embedded Postgres)
 *   npm run bench:read -- --mode distributed  # gateway + services as processes, Redis, Kafka
 *
 * Distributed mode uses DATABASE_URL / REDIS_URL / KAFKA_BROKERS when set, else the machine's Postgres and
 * Redis on their default ports and a Kafka mock broker it starts. Prints figures; never fails on them. A third
 * run asks as a browser does (Accept-Encoding: gzip, deflate, br, zstd), so the list comes compressed. Each
 * run prints req/s, latency and the server's CPU per request (its node processes, from /proc), the figure
 * that moves least when other work shares the machine's cores.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT, waitForHealthy } from './distributed-processes.ts';
import { adminToken, freePort, machineLine, startShopUnderTest } from './bench/shop-under-test.ts';
import { Stops } from '@shop/test-support/stops';
import { canMeasureCpu, processesCpuSeconds } from './bench/process-cpu.ts';

const args = process.argv.slice(2);
const mode = args.includes('--mode') ? args[args.indexOf('--mode') + 1]! : 'embedded';
const duration = Number(args.includes('--duration') ? args[args.indexOf('--duration') + 1] : 10);
const connections = 100;

/** Warm-up, then the measured run; `cpuSeconds` reads the CPU the server's processes have used so far. */
async function run(url: string, title: string, cpuSeconds: () => number, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: 2, headers });
  const cpuBefore = cpuSeconds();
  const r = await autocannon({ url, connections, duration, title, headers });
  const cpuUsPerRequest = canMeasureCpu() ? ((cpuSeconds() - cpuBefore) * 1e6) / r.requests.total : NaN;
  return {
    title,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    cpuUsPerRequest,
  };
}

const shopUnderTest = await startShopUnderTest(mode);
const stops = new Stops((e: unknown) => console.error('cleanup:', e));
stops.push(() => shopUnderTest.stop());
const dataDir = stops.tempDir('bench-read-');
try {
  const base = shopUnderTest.base;

  // Make exactly 40 listed products: the demo catalog plus a few more.
  const token = await adminToken(base);
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

  // CPU per request: the node processes of each server (Postgres, Redis and Kafka not counted). It moves far
  // less than req/s when other work shares the cores, so it is the figure to compare between commits.
  const ceiling = await run(`http://127.0.0.1:${barePort}/api/products`, 'bare express, bytes from memory', () =>
    processesCpuSeconds({ root: bareProc.pid }),
  );
  const shop = await run(`${base}/api/products`, `shop (${mode})`, () =>
    processesCpuSeconds({ excluded: [bareProc.pid!] }),
  );
  // What a browser sends: the list comes compressed (brotli), made once per change of the list.
  const browser = await run(
    `${base}/api/products`,
    `shop (${mode}), a browser's Accept-Encoding`,
    () => processesCpuSeconds({ excluded: [bareProc.pid!] }),
    { 'accept-encoding': 'gzip, deflate, br, zstd' },
  );

  console.log(
    `\nbench-read: GET /api/products, ${listed} products, ${bytes.length} bytes, ${connections} connections, ${duration} s`,
  );
  console.log(machineLine());
  console.log('| run | req/s | p50 ms | p99 ms | errors | server CPU µs / request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of [ceiling, shop, browser])
    console.log(
      `| ${r.title} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${Number.isNaN(r.cpuUsPerRequest) ? 'n/a' : Math.round(r.cpuUsPerRequest)} |`,
    );
  console.log(
    `shop / ceiling: ${((shop.rps / ceiling.rps) * 100).toFixed(1)}% (target >= 60%), shop p99 ${shop.p99} ms (target < 30 ms)`,
  );
} finally {
  await stops.stopAll();
}
