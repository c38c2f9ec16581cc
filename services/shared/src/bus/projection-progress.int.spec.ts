import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { eventLoopTurns } from '@shop/test-support/wait-until';
import { announceProjectionProgress, waitForProjection } from './projection-progress.ts';

/** Read-your-writes waiters: one read of consumer_streams, then this process's announcements. */
describe('waitForProjection', () => {
  let shopA: TestDatabase;
  let shopB: TestDatabase;

  beforeAll(async () => {
    [shopA, shopB] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([shopA?.drop(), shopB?.drop()]);
  });

  /** A waiter on `db` for stream-1 at version 3 (no re-read for a minute), and how it ended, once it has. */
  function waiter(db: TestDatabase) {
    let outcome: boolean | undefined;
    const waiting = waitForProjection({
      pool: db.pool,
      schema: 'orders',
      consumer: 'progress-test',
      streamId: 'stream-1',
      version: 3,
      timeoutMs: 60_000,
      pollIntervalMs: 60_000,
    }).then((ok) => (outcome = ok));
    return { waiting, outcome: () => outcome };
  }

  it('resolves from the announcement of the version, reading consumer_streams only once', async () => {
    const query = vi.spyOn(shopA.pool, 'query');
    try {
      const w = waiter(shopA);
      await vi.waitFor(() => expect(query).toHaveBeenCalledTimes(1));
      await query.mock.results[0]!.value; // its one read done: from here only announcements can resolve it
      announceProjectionProgress(shopA.pool, 'orders', 'progress-test', [['stream-1', 2]]);
      await eventLoopTurns();
      expect(w.outcome()).toBeUndefined(); // version 2 is not 3
      announceProjectionProgress(shopA.pool, 'orders', 'progress-test', [['stream-1', 3]]);
      expect(await w.waiting).toBe(true);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });

  it("does not take another shop's progress (same schema, consumer and stream, another database) for its own", async () => {
    const a = waiter(shopA);
    const b = waiter(shopB);
    announceProjectionProgress(shopA.pool, 'orders', 'progress-test', [['stream-1', 5]]);
    expect(await a.waiting).toBe(true);
    await eventLoopTurns();
    expect(b.outcome()).toBeUndefined();
    announceProjectionProgress(shopB.pool, 'orders', 'progress-test', [['stream-1', 3]]);
    expect(await b.waiting).toBe(true);
  });

  it('answers at once when the version is recorded already', async () => {
    await shopB.pool.query(
      `INSERT INTO orders.consumer_streams (consumer, stream_id, stream_version) VALUES ('progress-test', 'stream-2', 4)`,
    );
    const ok = await waitForProjection({
      pool: shopB.pool,
      schema: 'orders',
      consumer: 'progress-test',
      streamId: 'stream-2',
      version: 4,
      timeoutMs: 60_000,
      pollIntervalMs: 60_000,
    });
    expect(ok).toBe(true);
  });
});
