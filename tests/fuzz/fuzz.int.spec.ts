import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTE_TABLE } from '../../services/gateway/src/route-table.ts';
import { formatSummary, runFuzz, type FuzzSummary } from './fuzz-runner.ts';
import { startFuzzShop, type FuzzShop } from './fuzz-shop.ts';
import { RequestGenerator, routeKey } from './request-generator.ts';

const SEED = 20261122;
const REQUESTS = 10_000;

/**
 * Every route of the route table, fuzzed with a fixed seed: 10,000 generated requests (valid ones with
 * seeded ids, and hostile ones), 16 at a time, against the embedded shop on a fresh database. No answer may
 * be a 5xx, none may hang (10 s), no event the API accepted may be parked by a projection, and every route
 * must have been sent requests. A failure prints the
 * requests with `npm run fuzz -- --seed <seed> --index <i>` to replay each one.
 */
describe('fuzzing every route', () => {
  let fuzz: FuzzShop;
  let summary: FuzzSummary;

  beforeAll(async () => {
    // logLevel error: a 5xx's cause (the shop's 'unhandled error' line) is printed beside the failure
    fuzz = await startFuzzShop({ postgresUrl: inject('postgresUrl'), redisUrl: inject('redisUrl'), logLevel: 'error' });
    summary = await runFuzz({
      baseUrl: fuzz.url,
      baseUrlFor: fuzz.urlFor,
      generator: new RequestGenerator(fuzz.target, SEED),
      requests: REQUESTS,
      concurrency: 16,
      timeoutMs: 10_000,
    });
    console.log(formatSummary(summary));
  }, 300_000);
  afterAll(async () => {
    await fuzz?.stop();
  });

  it('answers every request, none with a 5xx', () => {
    expect(summary.requests).toBe(REQUESTS);
    expect(summary.failureCount, formatSummary(summary)).toBe(0);
  });

  it('sent requests to every route of the route table', () => {
    const missing = ROUTE_TABLE.map(routeKey).filter((k) => !summary.byRoute[k]);
    expect(missing).toEqual([]);
    expect(Object.keys(summary.byRoute).length).toBe(new Set(ROUTE_TABLE.map(routeKey)).size);
  });

  it('ran the handlers, not only the guards and the parsers', () => {
    // Each kind of answer the handlers give appeared: successes (valid requests with real ids), refusals by
    // validation, missing rows, guards and too-large bodies.
    for (const status of ['200', '201', '400', '401', '403', '404', '413'])
      expect(summary.byStatus[status] ?? 0, `status ${status}`).toBeGreaterThan(0);
  });

  it('accepted nothing its own projections could not take (no parked events)', async () => {
    expect(await fuzz.parkedEvents()).toEqual([]);
  });

  it('is still healthy afterwards', async () => {
    const r = await fetch(`${fuzz.url}/api/health`);
    expect(r.status).toBe(200);
  });
});
