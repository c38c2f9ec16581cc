import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { LeasedPendingRows, type LeasedRow } from './pending-work.ts';

/**
 * LeasedPendingRows, the one claim-and-retry of the leased pending tables (refunds, shipments, shipment
 * cancellations, outgoing mail), on a table of their shape in real Postgres.
 */
interface Job extends LeasedRow {
  job_key: string;
  payload: string;
}

const TABLE = 'public.leased_rows_test';

class Jobs extends LeasedPendingRows<Job> {
  readonly performed: string[] = [];
  /** Keys whose work fails ('park': a failure that parks the row). */
  readonly failing = new Map<string, 'retry' | 'park'>();
  /** Holds each row's work until released, so two runners overlap. */
  gate: Promise<void> = Promise.resolve();

  constructor(
    db: TestDatabase,
    readonly now: { t: number },
  ) {
    super({
      pool: db.pool,
      clock: () => new Date(now.t),
      table: { name: TABLE, key: 'job_key', columns: ['job_key', 'payload'], pending: 'done_at IS NULL' },
      onError: (err) => {
        throw err;
      },
    });
  }

  protected async perform(row: Job): Promise<void> {
    await this.gate;
    const failure = this.failing.get(row.job_key);
    if (failure) throw new Error(`${failure}: ${row.job_key} refused`);
    this.performed.push(`${row.job_key}:${row.payload}`);
  }

  protected nextAttempt(err: unknown, row: Job): Date | 'infinity' {
    return this.failing.get(row.job_key) === 'park' ? 'infinity' : this.retryAt(row);
  }
}

describe('LeasedPendingRows', () => {
  let db: TestDatabase;
  const now = { t: Date.parse('2026-11-28T00:00:00Z') };

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(`CREATE TABLE ${TABLE} (
      job_key text PRIMARY KEY, payload text NOT NULL, done_at timestamptz,
      attempts int NOT NULL DEFAULT 0, created_at timestamptz NOT NULL, next_attempt_at timestamptz NOT NULL,
      claimed_until timestamptz, last_error text)`);
  });
  afterAll(async () => {
    await db?.drop();
  });
  beforeEach(async () => {
    await db.pool.query(`TRUNCATE ${TABLE}`);
  });

  async function add(count: number, from = 0): Promise<void> {
    for (let i = from; i < from + count; i++)
      await db.pool.query(
        `INSERT INTO ${TABLE} (job_key, payload, created_at, next_attempt_at) VALUES ($1, $2, $3, $3)`,
        [`k${String(i).padStart(3, '0')}`, `p${i}`, new Date(now.t - 1_000 + i)],
      );
  }
  const rows = async () =>
    (
      await db.pool.query<{ job_key: string; attempts: number; last_error: string | null; next_attempt_at: Date }>(
        `SELECT job_key, attempts, last_error, next_attempt_at FROM ${TABLE} ORDER BY job_key`,
      )
    ).rows;

  it('carries out each due row once, oldest first, in batches, and deletes it; rows the filter leaves out stay', async () => {
    await add(120);
    await db.pool.query(`UPDATE ${TABLE} SET done_at = now() WHERE job_key = 'k005'`);
    const jobs = new Jobs(db, now);
    expect(await jobs.run()).toBe(119);
    const oldestFirst = Array.from({ length: 120 }, (_, i) => `k${String(i).padStart(3, '0')}:p${i}`);
    expect(jobs.performed).toEqual(oldestFirst.filter((j) => !j.startsWith('k005:')));
    expect((await rows()).map((r) => r.job_key)).toEqual(['k005']);
  });

  it('two runners at once (two processes) carry out each row exactly once', async () => {
    await add(80);
    const a = new Jobs(db, now);
    const b = new Jobs(db, now);
    let open!: () => void;
    a.gate = b.gate = new Promise((resolve) => (open = resolve));
    const runs = Promise.all([a.run(), b.run()]);
    open();
    const [doneA, doneB] = await runs;
    expect(doneA + doneB).toBe(80);
    const all = [...a.performed, ...b.performed].sort();
    expect(new Set(all).size).toBe(80);
    expect(all).toHaveLength(80);
    expect(await rows()).toEqual([]);
  });

  it('leaves a row claimed by a runner that died alone until its lease runs out, then takes it over', async () => {
    await add(1);
    await db.pool.query(`UPDATE ${TABLE} SET claimed_until = $1`, [new Date(now.t + 60_000)]);
    const jobs = new Jobs(db, now);
    expect(await jobs.run()).toBe(0);
    expect(jobs.performed).toEqual([]);
    const later = new Jobs(db, { t: now.t + 60_000 });
    expect(await later.run()).toBe(1);
    expect(later.performed).toEqual(['k000:p0']);
  });

  it('records a failure on its row (attempts, error, a retry 1 s later, doubling) without holding up the others', async () => {
    await add(3);
    const jobs = new Jobs(db, now);
    jobs.failing.set('k001', 'retry');
    expect(await jobs.run()).toBe(2);
    let [failed] = await rows();
    expect(failed).toMatchObject({ job_key: 'k001', attempts: 1, last_error: 'Error: retry: k001 refused' });
    expect(failed!.next_attempt_at.getTime() - now.t).toBe(1_000);
    // Not due yet: nothing runs; due, it fails again and waits twice as long.
    expect(await jobs.run()).toBe(0);
    const second = new Jobs(db, { t: now.t + 1_000 });
    second.failing.set('k001', 'retry');
    expect(await second.run()).toBe(0);
    [failed] = await rows();
    expect(failed!.attempts).toBe(2);
    expect(failed!.next_attempt_at.getTime() - (now.t + 1_000)).toBe(2_000);
    // Then it goes through.
    const third = new Jobs(db, { t: now.t + 3_000 });
    expect(await third.run()).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('parks a row whose failure says so: never due again, kept with its error', async () => {
    await add(1);
    const jobs = new Jobs(db, now);
    jobs.failing.set('k000', 'park');
    expect(await jobs.run()).toBe(0);
    const later = new Jobs(db, { t: now.t + 365 * 86_400_000 });
    expect(await later.run()).toBe(0);
    expect(await rows()).toMatchObject([{ job_key: 'k000', attempts: 1, last_error: 'Error: park: k000 refused' }]);
    const parked = await db.pool.query(`SELECT 1 FROM ${TABLE} WHERE next_attempt_at = 'infinity'`);
    expect(parked.rowCount).toBe(1);
  });
});
