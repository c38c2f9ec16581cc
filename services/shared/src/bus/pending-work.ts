import type pg from 'pg';
import { backoffDelay } from './retry-policy.ts';

/**
 * Delays of a piece of pending work that failed: 1 s after the first failure, doubling up to 5 minutes.
 * (The runner's job also sweeps every few seconds, so nothing waits for a kick.)
 */
export const PENDING_WORK_RETRY = Object.freeze({ baseDelayMs: 1_000, maxDelayMs: 300_000 });

/** When a piece of work that has now failed `attempts + 1` times is due again. */
export const pendingWorkRetryAt = (now: Date, attempts: number): Date =>
  new Date(now.getTime() + backoffDelay(attempts + 1, PENDING_WORK_RETRY));

/**
 * The reactor half of a process manager. Its consumer's handle() only records the work to do, in the bus
 * transaction (a row of a pending table, so a decision is never lost); the work itself (calls to other
 * services, to the payment provider) is done after the commit, outside any transaction, by `runDue`, which
 * carries out the due rows and answers how many it completed. The consumer's afterCommit, the repeating job
 * and start-up call kick() or run(): one run at a time per process, and a kick during a run makes it run
 * once more when it ends, so work recorded meanwhile is not left for the next sweep.
 */
export class PendingWork {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly runDue: () => Promise<number>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts a run now, not waiting for it (after a commit); failures go to onError. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    void this.run().catch(this.onError);
  }

  /** Carries out every due piece of work; answers how many were completed (a run under way: its count). */
  async run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let done = 0;
      do {
        this.again = false;
        done += await this.runDue();
      } while (this.again);
      return done;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}

/**
 * A runner of one pending table: kick() and run() as PendingWork's, and a run takes the due rows a batch at a
 * time (`due`, oldest first) and carries each out in turn (`carryOut`, which records its own failure for a
 * retry and answers false), until a batch comes back short.
 */
export abstract class PendingRows<Row> {
  private readonly work: PendingWork;

  protected constructor(
    private readonly batch: number,
    onError: (err: unknown) => void,
  ) {
    this.work = new PendingWork(() => this.runDue(), onError);
  }

  /** Starts a run now (after a commit); a run already under way runs once more when it ends. */
  kick(): void {
    this.work.kick();
  }

  /** Carries out every due row; answers how many were completed. One run at a time per process. */
  run(): Promise<number> {
    return this.work.run();
  }

  /** The due rows, at most `limit`, oldest first. */
  protected abstract due(limit: number): Promise<Row[]>;

  /** Carries out one row; answers whether it is done (a failure is recorded for a retry, not thrown). */
  protected abstract carryOut(row: Row): Promise<boolean>;

  private async runDue(): Promise<number> {
    let done = 0;
    for (;;) {
      const rows = await this.due(this.batch);
      if (rows.length === 0) return done;
      // One after another, oldest first: a failed row waits for its retry and holds up none of the others.
      for (const row of rows) if (await this.carryOut(row)) done += 1;
      if (rows.length < this.batch) return done;
    }
  }
}

/** A pending table whose rows are claimed with a lease (migrations 029, 032, 038, 039): one row per key. */
export interface LeasedTable {
  /** The table, schema-qualified (and quoted where it must be). */
  name: string;
  /** Its key column: one row, and one runner at a time, per key. */
  key: string;
  /** The columns a claimed row carries besides `attempts` (the key among them). */
  columns: readonly string[];
  /** Rows the claim leaves out besides those not due (e.g. `sent_at IS NULL`: those still to do). */
  pending?: string;
}

/** The columns every leased table has: attempts, created_at, next_attempt_at, claimed_until, last_error. */
export interface LeasedRow {
  attempts: number;
}

/** How long a runner holds a claimed row: well past the outside calls a row's work makes (15 s timeout each). */
const LEASE_MS = 120_000;
const LEASED_BATCH = 50;

/**
 * A runner of a leased pending table, the one definition of its claim and its retries: a run claims the due
 * rows oldest first with a lease (`claimed_until`, FOR UPDATE SKIP LOCKED), so two processes never work on one
 * row at the same time and a process that died holding one gives it up when the lease runs out; each row is
 * carried out (`perform`, which must be safe to repeat after an attempt that died between its outside call and
 * its record), then is `done` (deleted, unless overridden); a failure is recorded on the row (attempts,
 * last_error) and the row waits for its retry (`nextAttempt`: 1 s doubling up to 5 minutes unless overridden,
 * 'infinity' parks it) and holds up none of the others.
 */
export abstract class LeasedPendingRows<Row extends LeasedRow> extends PendingRows<Row> {
  protected constructor(
    protected readonly leased: {
      pool: pg.Pool;
      clock: () => Date;
      table: LeasedTable;
      /** Logs a run that failed as a whole (a claim the database refused). */
      onError: (err: unknown) => void;
    },
  ) {
    super(LEASED_BATCH, leased.onError);
  }

  /** Carries out a claimed row's work; throws to have it retried. */
  protected abstract perform(row: Row): Promise<void>;

  /** Logs a failed attempt and answers when the row is due again ('infinity': parked, never). */
  protected abstract nextAttempt(err: unknown, row: Row): Date | 'infinity';

  /** The default retry of a row that has now failed `attempts + 1` times (PENDING_WORK_RETRY). */
  protected retryAt(row: Row): Date {
    return pendingWorkRetryAt(this.leased.clock(), row.attempts);
  }

  /** What is left once a row's work is done: nothing (the row is deleted). */
  protected async done(row: Row): Promise<void> {
    await this.settle(this.leased.pool, this.keyOf(row));
  }

  /** Drops the row of `key` (in the caller's transaction: the event that says the work is done). */
  async settle(db: pg.PoolClient | pg.Pool, key: string): Promise<void> {
    const { name, key: column } = this.leased.table;
    await db.query(`DELETE FROM ${name} WHERE ${column} = $1`, [key]);
  }

  protected keyOf(row: Row): string {
    return String((row as unknown as Record<string, unknown>)[this.leased.table.key]);
  }

  protected async due(limit: number): Promise<Row[]> {
    const { name, key, columns, pending } = this.leased.table;
    const now = this.leased.clock();
    // The claim's own order is arbitrary (UPDATE ... RETURNING): the claimed rows are put back in order of age.
    const returned = [...columns, 'attempts'].join(', ');
    const { rows } = await this.leased.pool.query<Row & pg.QueryResultRow>(
      `WITH claimed AS (
         UPDATE ${name} SET claimed_until = $2
          WHERE ${key} IN (
            SELECT ${key} FROM ${name}
             WHERE ${pending ? `${pending} AND ` : ''}next_attempt_at <= $1
               AND (claimed_until IS NULL OR claimed_until <= $1)
             ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING ${returned}, created_at)
       SELECT ${returned} FROM claimed ORDER BY created_at`,
      [now, new Date(now.getTime() + LEASE_MS)],
    );
    return rows;
  }

  protected async carryOut(row: Row): Promise<boolean> {
    try {
      await this.perform(row);
      await this.done(row);
      return true;
    } catch (err) {
      const { name, key } = this.leased.table;
      await this.leased.pool
        .query(
          `UPDATE ${name}
              SET attempts = attempts + 1, next_attempt_at = $2, claimed_until = NULL, last_error = $3
            WHERE ${key} = $1`,
          [this.keyOf(row), this.nextAttempt(err, row), String(err).slice(0, 500)],
        )
        .catch(() => undefined);
      return false;
    }
  }
}
