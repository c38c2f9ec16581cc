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
