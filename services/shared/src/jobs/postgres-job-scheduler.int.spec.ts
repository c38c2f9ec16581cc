import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { createLogger } from '../observability/logger.ts';
import { PostgresJobScheduler, type PostgresJobSchedulerOptions } from './postgres-job-scheduler.ts';

const logger = createLogger('test', 'silent');
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

const opened: PostgresJobScheduler[] = [];
let prefixCounter = 0;
const open = (options: Partial<PostgresJobSchedulerOptions> & { prefix: string }) => {
  const scheduler = new PostgresJobScheduler({
    pool: db.pool,
    logger,
    retry: { attempts: 2, backoffMs: 10 },
    ...options,
  });
  opened.push(scheduler);
  return scheduler;
};
const newPrefix = () => `pg${++prefixCounter}`;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.stop()));
});

/** The test pool, counting the queries made through it. */
const countingPool = () => {
  let queries = 0;
  const pool = new Proxy(db.pool, {
    get: (target, key) =>
      key === 'query'
        ? (...args: unknown[]) => (queries++, (target.query as (...a: unknown[]) => unknown).apply(target, args))
        : Reflect.get(target, key),
  });
  return { pool, queries: () => queries };
};

const rowsOf = async (prefix: string) =>
  (
    await db.pool.query<{
      name: string;
      job_id: string;
      state: string;
      attempts: number;
      last_error: string | null;
      repeat_every_ms: number | null;
    }>(
      `SELECT name, job_id, state, attempts, last_error, repeat_every_ms FROM jobs.jobs WHERE name LIKE $1 || ':%' ORDER BY id`,
      [prefix],
    )
  ).rows;

describe('PostgresJobScheduler', () => {
  it('wakes up for a job it scheduled itself instead of waiting for the next poll', async () => {
    const prefix = newPrefix();
    const counted = countingPool();
    const jobs = open({ prefix, pool: counted.pool, pollIntervalMs: 60_000 });
    let ranAt = 0;
    jobs.register('reservation-expiry', async () => {
      ranAt = Date.now();
    });
    // start() resolves after its first poll, which found nothing: the next poll is a minute away.
    await jobs.start();
    const scheduledAt = Date.now();
    await jobs.schedule('reservation-expiry', {}, { delayMs: 100 });
    await waitUntil(() => ranAt, 'the job', 3_000);
    expect(ranAt - scheduledAt).toBeGreaterThanOrEqual(100 - 2);
    // Start-up, schedule, one claim and its follow-up: no busy polling while the job was not yet due.
    expect(counted.queries()).toBeLessThan(12);
  });

  it('polls an idle table at its interval, not in a busy loop', async () => {
    const counted = countingPool();
    const idle = open({ prefix: newPrefix(), pool: counted.pool, pollIntervalMs: 100 });
    idle.register('reservation-expiry', async () => undefined);
    await idle.start();
    // Another instance's delayed job measures out a stretch of idle time.
    const clock = open({ prefix: newPrefix() });
    let ticked = false;
    clock.register('tick', async () => {
      ticked = true;
    });
    await clock.start();
    const since = Date.now();
    const before = counted.queries();
    await clock.schedule('tick', {}, { delayMs: 500 });
    await waitUntil(() => ticked, 'the clock job');
    // A poll is a claim plus a look at when the next job is due.
    const polls = (counted.queries() - before) / 2;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(Math.ceil((Date.now() - since) / 100) + 1);
  });

  it('records a job that failed every attempt as failed, with its last error, for operators', async () => {
    const prefix = newPrefix();
    const jobs = open({ prefix });
    jobs.register('payment-reconciliation', async () => {
      throw new Error('Razorpay answered 502');
    });
    await jobs.start();
    await jobs.schedule('payment-reconciliation', { razorpayOrderId: 'order_5' }, { jobId: 'order_5' });
    const [row] = await waitUntil(async () => {
      const rows = await rowsOf(prefix);
      return rows[0]?.state === 'failed' ? rows : undefined;
    }, 'the job to be marked failed');
    expect(row).toMatchObject({ job_id: 'order_5', attempts: 2, state: 'failed' });
    expect(row!.last_error).toContain('Razorpay answered 502');
  });

  it('runs again a job whose worker died mid-run once its lease lapses', async () => {
    const prefix = newPrefix();
    // What a crashed process leaves behind: a claimed row whose lease is no longer renewed.
    await db.pool.query(
      `INSERT INTO jobs.jobs (name, job_id, data, state, attempts, locked_by, locked_until)
       VALUES ($1, 'order_3', '"order_3"', 'running', 1, 'crashed-worker', now() - interval '1 second')`,
      [`${prefix}:reservation-expiry`],
    );
    const jobs = open({ prefix });
    const ran: unknown[] = [];
    jobs.register('reservation-expiry', async (data) => {
      ran.push(data);
    });
    await jobs.start();
    await waitUntil(async () => (await rowsOf(prefix))[0]?.state === 'completed', 'the job to complete');
    expect(ran).toEqual(['order_3']);
  });

  it('keeps a lease alive while a long job runs, and stop() waits for it to finish', async () => {
    const prefix = newPrefix();
    const slow = open({ prefix, leaseMs: 200 });
    const releases: Array<() => void> = [];
    const started: unknown[] = [];
    slow.register('projection-rebuild', async (data) => {
      started.push(data);
      await new Promise<void>((resolve) => releases.push(resolve));
    });
    const other = open({ prefix, pollIntervalMs: 20 });
    other.register('projection-rebuild', async (data) => {
      started.push(data);
    });
    await slow.start();
    await slow.schedule('projection-rebuild', 'orders');
    await waitUntil(() => started.length === 1, 'the job to start');
    await other.start();
    const leaseEndMs = async () =>
      (
        await db.pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM locked_until)::float8 * 1000 AS ms FROM jobs.jobs WHERE name LIKE $1 || ':%'`,
          [prefix],
        )
      ).rows[0]!.ms;
    try {
      const firstLeaseEndMs = await leaseEndMs();
      // Renewed for three lease lengths while the other instance polls every 20 ms; it must not take the job over.
      await waitUntil(async () => (await leaseEndMs()) - firstLeaseEndMs >= 600, 'the lease to be renewed');
      expect(started).toEqual(['orders']);
    } finally {
      const stopped = slow.stop();
      for (const release of releases) release();
      await stopped;
    }
    expect((await rowsOf(prefix))[0]).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('keeps one row per repeated name and leaves names it does not handle alone', async () => {
    const prefix = newPrefix();
    const instances = [open({ prefix }), open({ prefix }), open({ prefix })];
    await Promise.all(instances.map((s) => s.repeat('payment-reconciliation', 60_000)));
    await instances[0]!.repeat('payment-reconciliation', 30_000);
    await instances[1]!.schedule('stock-audit', {});
    await Promise.all(instances.map((s) => s.start()));
    expect((await rowsOf(prefix)).map((r) => [r.name, r.job_id, r.state, r.repeat_every_ms])).toEqual([
      [`${prefix}:payment-reconciliation`, '@repeat', 'pending', 30_000],
      [`${prefix}:stock-audit`, expect.any(String), 'pending', null],
    ]);
    await expect(instances[0]!.schedule('payment-reconciliation', {}, { jobId: '@repeat' })).rejects.toThrow(
      /reserved/,
    );
  });
});
