/**
 * Fuzzes every route of the route table: starts the embedded shop on a fresh database (DATABASE_URL's server,
 * default the local Postgres; REDIS_URL, default the local Redis) with seeded rows, sends generated requests
 * (valid and hostile) and prints per-route and per-status counts. Exits 1 on any 5xx answer or hang, or
 * when a projection parked an event the API accepted.
 *
 *   npm run fuzz -- [--requests 10000] [--seed 1] [--concurrency 16] [--timeout 10000] [--samples]
 *                   [--mode embedded|distributed]   # distributed: gateway + services as processes, Kafka, Redis
 *   npm run fuzz -- --seed 1 --index 4711     # that one request again: what was sent and the answer
 */
import { formatSummary, describeRequest, runFuzz, sendOne } from '../tests/fuzz/fuzz-runner.ts';
import { startFuzzShop } from '../tests/fuzz/fuzz-shop.ts';
import { RequestGenerator } from '../tests/fuzz/request-generator.ts';
import http from 'node:http';

const arg = (name: string, dflt?: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const int = (name: string, dflt: number) => {
  const v = Number(arg(name, String(dflt)));
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number`);
  return v;
};
const requests = int('requests', 10_000);
const seed = int('seed', 1);
const concurrency = int('concurrency', 16);
const timeoutMs = int('timeout', 10_000);
const index = arg('index');
const mode = arg('mode', 'embedded');
if (mode !== 'embedded' && mode !== 'distributed') throw new Error('--mode must be embedded or distributed');

const fuzz = await startFuzzShop({
  postgresUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  logLevel: process.env.LOG_LEVEL ?? 'error',
  mode,
});
let failed: boolean;
try {
  const generator = new RequestGenerator(fuzz.target, seed);
  console.log(`${mode} shop at ${fuzz.url}; ${fuzz.target.routes.length} routes`);
  if (index !== undefined) {
    const req = generator.generate(Number(index));
    console.log(describeRequest(req, seed));
    const agent = new http.Agent();
    const { outcome, answer } = await sendOne(new URL(fuzz.urlFor(req.target)), agent, req, timeoutMs);
    agent.destroy();
    console.log(`answer: ${outcome}${answer ? ` ${answer}` : ''}`);
    failed = outcome === 'hang' || (typeof outcome === 'number' && outcome >= 500);
  } else {
    const summary = await runFuzz({
      baseUrl: fuzz.url,
      baseUrlFor: fuzz.urlFor,
      generator,
      requests,
      concurrency,
      timeoutMs,
      onProgress: (done) => process.stderr.write(`  ${done}/${requests}\n`),
      progressEvery: 2000,
    });
    console.log(formatSummary(summary));
    if (process.argv.includes('--samples'))
      for (const [route, byStatus] of Object.entries(summary.samples))
        for (const [status, answer] of Object.entries(byStatus))
          console.log(`${route} ${status}: ${answer.slice(0, 160)}`);
    const parked = await fuzz.parkedEvents();
    for (const e of parked) console.log(`parked: ${e.schema} ${e.consumer} ${e.type}: ${e.error}`);
    if (parked.length) console.log(`FAILED: ${parked.length} events the API accepted were parked by a projection`);
    failed = summary.failureCount > 0 || parked.length > 0;
  }
} finally {
  await fuzz.stop();
}
process.exit(failed ? 1 : 0);
