import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';
import { SourceLogReader } from './source-log-reader.ts';

describe('SourceLogReader', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let reader: SourceLogReader;
  const start = { transactionId: 0n, globalPosition: 0n };
  const ids = (events: RecordedEvent[]) => events.map((e) => `${e.streamId}@${e.streamVersion}`);

  beforeEach(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, 'catalog');
    reader = new SourceLogReader(store, db.pool);
  });

  afterEach(async () => {
    await db.drop();
  });

  it('serves consumers at different cursors asking at once from one read, each from its own cursor', async () => {
    for (let v = 0; v < 10; v++) await store.append('product-r', v, [{ type: 'StockAdjusted', data: { v } }]);
    // (Another database's open transaction on the shared server can hold the log back for a while.)
    const log = await waitUntil(async () => {
      const all = await store.readAll(start, 100);
      return all.length === 10 ? all : undefined;
    }, 'the 10 events to be readable');
    const reads = vi.spyOn(store, 'readAll');
    try {
      const [first4, past5, past2, pastLast] = await Promise.all([
        reader.read(start, 4),
        reader.read(log[5]!, 4),
        reader.read(log[2]!, 10),
        reader.read(log[9]!, 4),
      ]);
      expect(ids(first4.events)).toEqual(ids(log.slice(0, 4)));
      expect(first4.more).toBe(true);
      expect(ids(past5.events)).toEqual(ids(log.slice(6, 10)));
      expect(ids(past2.events)).toEqual(ids(log.slice(3, 10)));
      // The shared read stopped at its limit (10): the consumers reaching its end may have more to read.
      expect(past2.more).toBe(true);
      expect(pastLast.events).toEqual([]);
      expect(pastLast.more).toBe(false);
      // One read from the lowest cursor, one more for the cursor at its (full) end.
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('reads anew for a consumer asking after an earlier read, so it sees what was committed before it asked', async () => {
    await store.append('product-s', 0, [{ type: 'StockAdjusted', data: {} }]);
    // (Another database's open transaction on the shared server can hold the log back for a while.)
    await waitUntil(async () => (await reader.read(start, 10)).events.length === 1, 'the first append to be read');
    await store.append('product-s', 1, [{ type: 'StockAdjusted', data: {} }]);
    await waitUntil(async () => (await store.readAll(start, 10)).length === 2, 'the second append to be readable');
    expect(ids((await reader.read(start, 10)).events)).toEqual(['product-s@1', 'product-s@2']);
  });

  it('tells, with the same read, whether committed events are held back behind an older open transaction', async () => {
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      await store.append('product-early', 0, [{ type: 'ProductCreated', data: {} }], { tx: slow });
      await store.append('product-late', 0, [{ type: 'ProductCreated', data: {} }]);
      const held = await reader.read(start, 10, true);
      expect(held.events).toEqual([]);
      expect(held.check?.pending).toBe(true);
      expect(held.check?.head).toBeDefined();
      await slow.query('COMMIT');
    } finally {
      slow.release();
    }
    const read = await waitUntil(async () => {
      const r = await reader.read(start, 10, true);
      return r.events.length === 2 ? r : undefined;
    }, 'both events to be readable');
    expect(ids(read.events)).toEqual(['product-early@1', 'product-late@1']);
    expect(read.check).toEqual({ pending: false, head: read.events[1]!.globalPosition });
    expect(read.more).toBe(false);
    // Past the held-back ones only what is still held back counts.
    expect((await reader.read(read.events[1]!, 10, true)).check?.pending).toBe(false);
  });
});
