import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';
import { waitForProjection } from '../projection-progress.ts';
import type { EventConsumer } from '../types.ts';
import { PostgresLogSubscription } from './postgres-log-subscription.ts';
import { SourceLogReaders } from './source-log-reader.ts';

/** Adapter-specific behaviour; what both adapters promise is in bus.contract.int.spec.ts. */
describe('PostgresLogSubscription', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let subscriptions: PostgresLogSubscription[];
  const applied: RecordedEvent[] = [];

  const consumer: EventConsumer = {
    name: 'pg-log-test',
    schema: 'orders',
    sources: ['catalog'],
    async handle(event, tx) {
      applied.push(event);
      await tx.query('INSERT INTO orders.applied (event_id) VALUES ($1)', [event.eventId]);
    },
  };

  beforeEach(async () => {
    db = await createTestDatabase();
    await db.pool.query('CREATE TABLE orders.applied (seq bigserial PRIMARY KEY, event_id uuid NOT NULL)');
    store = new PostgresEventStore(db.pool, 'catalog');
    subscriptions = [];
    applied.length = 0;
  });

  afterEach(async () => {
    for (const s of subscriptions) await s.stop();
    await db.drop();
  });

  /** Whether the consumer has applied `streamId` up to `version` within `timeoutMs`. */
  const appliedUpTo = (streamId: string, version: number, timeoutMs: number) =>
    waitForProjection({ pool: db.pool, schema: 'orders', consumer: consumer.name, streamId, version, timeoutMs });

  async function started(options: { batchSize?: number } = {}): Promise<PostgresLogSubscription> {
    const s = new PostgresLogSubscription({ pool: db.pool, consumer, pollIntervalMs: 60_000, ...options });
    subscriptions.push(s);
    await s.start();
    return s;
  }

  it('two running instances of one consumer apply each event exactly once', async () => {
    await Promise.all([started({ batchSize: 7 }), started({ batchSize: 5 })]);
    await Promise.all(
      Array.from({ length: 10 }, async (_, s) => {
        for (let v = 0; v < 10; v++) await store.append(`product-${s}`, v, [{ type: 'StockAdjusted', data: { v } }]);
      }),
    );
    for (let s = 0; s < 10; s++) {
      expect(await appliedUpTo(`product-${s}`, 10, 20_000)).toBe(true);
    }
    const { rows } = await db.pool.query<{ n: number; distinct_ids: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids FROM orders.applied',
    );
    expect(rows[0]).toEqual({ n: 100, distinct_ids: 100 });
  });

  it('does not skip an event whose transaction commits after a later-positioned one', async () => {
    await started();
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      // Takes its position first, commits last.
      const early = await store.append('product-early', 0, [{ type: 'ProductCreated', data: {} }], { tx: slow });
      const late = await store.append('product-late', 0, [{ type: 'ProductCreated', data: {} }]);
      expect(early.lastGlobalPosition < late.lastGlobalPosition).toBe(true);
      // The committed event waits behind the open transaction rather than jumping the checkpoint past it.
      expect(await appliedUpTo('product-late', 1, 300)).toBe(false);
      await slow.query('COMMIT');
    } finally {
      slow.release();
    }
    expect(await appliedUpTo('product-late', 1, 10_000)).toBe(true);
    expect(await appliedUpTo('product-early', 1, 10_000)).toBe(true);
    expect(applied.map((e) => e.streamId)).toEqual(['product-early', 'product-late']);
  });

  it('re-listens after losing its LISTEN connection and picks up what was committed meanwhile', async () => {
    await started();
    const { rows } = await db.pool.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN shop_events'`,
    );
    expect(rows).toHaveLength(1);
    // Wait for the backend to be gone, so the old connection cannot deliver the next notification.
    await db.pool.query('SELECT pg_terminate_backend($1, 5000)', [rows[0].pid]);
    // A store unknown to the subscription (another process): only NOTIFY, or the 60 s poll, can wake it.
    await new PostgresEventStore(db.pool, 'catalog').append('product-after-outage', 0, [
      { type: 'ProductCreated', data: {} },
    ]);
    expect(await appliedUpTo('product-after-outage', 1, 10_000)).toBe(true);
  });

  it('hands a consumer with handleBatch the claimed events of a poll at once, in order, leaving out duplicates', async () => {
    const batches: string[][] = [];
    const batching: EventConsumer = {
      name: 'pg-log-batch-test',
      schema: 'orders',
      sources: ['catalog'],
      handle: () => Promise.reject(new Error('handle() is not called when handleBatch is there')),
      async handleBatch(events, tx) {
        batches.push(events.map((e) => `${e.streamId}@${e.streamVersion}`));
        for (const e of events) await tx.query('INSERT INTO orders.applied (event_id) VALUES ($1)', [e.eventId]);
        return events.map(() => undefined);
      },
    };
    for (let v = 0; v < 5; v++) await store.append('product-b', v, [{ type: 'StockAdjusted', data: { v } }]);
    // product-b up to version 2 was applied before (a redelivery after a crash): only 3, 4 and 5 are handed on.
    await db.pool.query(
      `INSERT INTO orders.consumer_streams (consumer, stream_id, stream_version) VALUES ($1, 'product-b', 2)`,
      [batching.name],
    );
    const s = new PostgresLogSubscription({ pool: db.pool, consumer: batching, pollIntervalMs: 60_000 });
    subscriptions.push(s);
    await s.start();
    expect(
      await waitForProjection({
        pool: db.pool,
        schema: 'orders',
        consumer: batching.name,
        streamId: 'product-b',
        version: 5,
        timeoutMs: 10_000,
      }),
    ).toBe(true);
    expect(batches).toEqual([['product-b@3', 'product-b@4', 'product-b@5']]);
  });

  it("is woken by its process's appends of types it wants, not by its NOTIFY nor by each unwanted one", async () => {
    const picky: EventConsumer = { ...consumer, name: 'pg-log-picky-test', eventTypes: ['ProductCreated'] };
    const s = new PostgresLogSubscription({ pool: db.pool, consumer: picky, stores: [store], pollIntervalMs: 60_000 });
    subscriptions.push(s);
    await s.start();
    await store.append('product-first', 0, [{ type: 'ProductCreated', data: {} }]);
    expect(
      await waitForProjection({
        pool: db.pool,
        schema: 'orders',
        consumer: picky.name,
        streamId: 'product-first',
        version: 1,
        timeoutMs: 10_000,
      }),
    ).toBe(true);
    const reads = vi.spyOn(store, 'readAll');
    try {
      for (let v = 0; v < 10; v++) await store.append('product-p', v, [{ type: 'StockAdjusted', data: { v } }]);
      await store.append('product-wanted', 0, [{ type: 'ProductCreated', data: {} }]);
      expect(
        await waitForProjection({
          pool: db.pool,
          schema: 'orders',
          consumer: picky.name,
          streamId: 'product-wanted',
          version: 1,
          timeoutMs: 10_000,
        }),
      ).toBe(true);
      // Every append woke it twice before (its own hook, then its NOTIFY): 22 reads. Now the wanted one
      // wakes it, and the unwanted ones at most once a second, together.
      expect(reads.mock.calls.length).toBeLessThan(5);
    } finally {
      reads.mockRestore();
    }
    // The unwanted ones are passed in the checkpoint all the same.
    const head = (await db.pool.query<{ p: bigint }>('SELECT max(global_position) AS p FROM catalog.events')).rows[0]!
      .p;
    await waitUntil(async () => {
      const { rows } = await db.pool.query<{ at: bigint }>(
        `SELECT global_position AS at FROM orders.checkpoints WHERE consumer = $1 AND source = 'catalog'`,
        [picky.name],
      );
      return rows[0]?.at === head;
    }, 'the checkpoint to pass the unwanted events');
  });

  describe('consumers of one source in one process', () => {
    const appliedBy = async () =>
      (
        await db.pool.query<{ consumer: string; n: number; distinct_ids: number }>(
          `SELECT consumer, count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids
             FROM orders.applied_by GROUP BY consumer ORDER BY consumer`,
        )
      ).rows;
    const recording = (name: string, eventTypes?: string[]): EventConsumer => ({
      name,
      schema: 'orders',
      sources: ['catalog'],
      eventTypes,
      async handle(event, tx) {
        await tx.query('INSERT INTO orders.applied_by (consumer, event_id) VALUES ($1, $2)', [name, event.eventId]);
      },
    });
    const follow = async (consumer: EventConsumer, readers: SourceLogReaders, batchSize?: number) => {
      const s = new PostgresLogSubscription({
        pool: db.pool,
        consumer,
        stores: [store],
        readers,
        batchSize,
        pollIntervalMs: 60_000,
      });
      subscriptions.push(s);
      await s.start();
    };
    const caughtUp = (consumer: string, streamId: string, version: number) =>
      waitForProjection({ pool: db.pool, schema: 'orders', consumer, streamId, version, timeoutMs: 10_000 });

    beforeEach(async () => {
      await db.pool.query('CREATE TABLE orders.applied_by (consumer text NOT NULL, event_id uuid NOT NULL)');
    });

    it('woken by one append, read the log once between them (each on its own, once each)', async () => {
      /** Log reads while `names` follow the log, each of them woken by each of 8 appends. */
      const readsOf = async (names: string[], readers: () => SourceLogReaders): Promise<number> => {
        const following = subscriptions.length;
        for (const name of names) await follow(recording(name, ['ProductCreated']), readers());
        await store.append(`${names[0]}-start`, 0, [{ type: 'ProductCreated', data: {} }]);
        for (const name of names) expect(await caughtUp(name, `${names[0]}-start`, 1)).toBe(true);
        const query = vi.spyOn(db.pool, 'query');
        try {
          for (let i = 1; i <= 8; i++) {
            await store.append(`${names[0]}-${i}`, 0, [{ type: 'ProductCreated', data: {} }]);
            for (const name of names) expect(await caughtUp(name, `${names[0]}-${i}`, 1)).toBe(true);
          }
          return query.mock.calls.filter(
            ([text]) =>
              typeof text === 'string' && text.includes('catalog.events') && text.includes('pg_snapshot_xmin'),
          ).length;
        } finally {
          query.mockRestore();
          for (const s of subscriptions.splice(following)) await s.stop();
        }
      };
      const alone = await readsOf(['alone-a', 'alone-b', 'alone-c', 'alone-d'], () => new SourceLogReaders());
      const shared = new SourceLogReaders();
      const together = await readsOf(['fan-a', 'fan-b', 'fan-c', 'fan-d'], () => shared);
      // Alone: at least one read per consumer and append (32); re-reads of events held back by another
      // database's open transaction (the server is shared) come on top of both.
      expect(alone).toBeGreaterThanOrEqual(32);
      expect(together).toBeLessThanOrEqual(alone / 2);
      // Each once: the later ones from the start of the log, so the first ones' events too.
      const all = await appliedBy();
      for (const consumer of ['alone-a', 'alone-d']) expect(all).toContainEqual({ consumer, n: 9, distinct_ids: 9 });
      for (const consumer of ['fan-a', 'fan-d']) expect(all).toContainEqual({ consumer, n: 18, distinct_ids: 18 });
    });

    it('at different cursors, with different batch sizes, each apply every event exactly once', async () => {
      const readers = new SourceLogReaders();
      await follow(recording('ahead'), readers);
      for (let v = 0; v < 10; v++) await store.append('product-x', v, [{ type: 'StockAdjusted', data: { v } }]);
      expect(await caughtUp('ahead', 'product-x', 10)).toBe(true);
      // Starts from the beginning of the log while the other is at its end, both reading through one reader.
      await follow(recording('behind'), readers, 3);
      await Promise.all(
        Array.from({ length: 4 }, async (_, s) => {
          for (let v = 0; v < 5; v++) await store.append(`product-${s}`, v, [{ type: 'StockAdjusted', data: { v } }]);
        }),
      );
      for (const name of ['ahead', 'behind']) {
        expect(await caughtUp(name, 'product-x', 10)).toBe(true);
        for (let s = 0; s < 4; s++) expect(await caughtUp(name, `product-${s}`, 5)).toBe(true);
      }
      expect(await appliedBy()).toEqual([
        { consumer: 'ahead', n: 30, distinct_ids: 30 },
        { consumer: 'behind', n: 30, distinct_ids: 30 },
      ]);
    });
  });
});
