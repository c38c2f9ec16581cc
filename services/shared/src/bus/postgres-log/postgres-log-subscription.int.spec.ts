import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../../eventstore/types.ts';
import { waitForProjection } from '../projection-progress.ts';
import type { EventConsumer } from '../types.ts';
import { PostgresLogSubscription } from './postgres-log-subscription.ts';

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
});
