import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { createPool } from '../db/pool.ts';
import { PostgresEventStore } from '../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../eventstore/types.ts';
import {
  createEventBus,
  KafkaSubscription,
  listParkedEvents,
  replayParkedEvent,
  topicOf,
  waitForProjection,
  type DeliveryOutcome,
  type EventBus,
  type EventConsumer,
  type Subscription,
} from './index.ts';

/**
 * One contract, both bus adapters: the Postgres-log subscription (embedded mode) and Kafka (outbox relay +
 * consumer group, against the Kafka-protocol broker of the test setup). Every test gets a fresh database,
 * its own topics and its own consumer names. Consumers live in `orders` and read `catalog` (and `orders`).
 */
type AdapterName = 'postgres-log' | 'kafka';

const RETRY = { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 };

/** A test consumer's after-commit effect: the event, the handler call that returned it, the row it wrote. */
interface TestEffect {
  event: RecordedEvent;
  call: number;
  rowSeq: string;
}

interface TestConsumer extends EventConsumer<TestEffect> {
  /** Handler calls per event id (failed attempts included). */
  calls: Map<string, number>;
  /** When each handler call started, per event id. */
  callTimes: Map<string, number[]>;
  /** Events whose effects were passed to afterCommit. */
  committed: RecordedEvent[];
  /** Every afterCommit call's effects, in order. */
  afterCommits: TestEffect[][];
}

/**
 * A projection writing one row per applied event into orders.read_model (no unique key: a double apply
 * shows as two rows). `failOn` decides, after the row was written, whether this call throws. Its effect
 * names the event, the call and the row written.
 */
function testConsumer(
  name: string,
  opts: {
    sources?: string[];
    eventTypes?: string[];
    failOn?: (e: RecordedEvent, call: number) => boolean;
    /** Awaited at the start of afterCommit. */
    inAfterCommit?: (effects: TestEffect[]) => Promise<void>;
  } = {},
): TestConsumer {
  const calls = new Map<string, number>();
  const callTimes = new Map<string, number[]>();
  const committed: RecordedEvent[] = [];
  const afterCommits: TestEffect[][] = [];
  return {
    name,
    schema: 'orders',
    sources: opts.sources ?? ['catalog'],
    ...(opts.eventTypes ? { eventTypes: opts.eventTypes } : {}),
    calls,
    callTimes,
    committed,
    afterCommits,
    async handle(event: RecordedEvent, tx: PoolClient) {
      const call = (calls.get(event.eventId) ?? 0) + 1;
      calls.set(event.eventId, call);
      callTimes.set(event.eventId, [...(callTimes.get(event.eventId) ?? []), performance.now()]);
      const { rows } = await tx.query<{ seq: string }>(
        'INSERT INTO orders.read_model (consumer, stream_id, stream_version, event_id, type) VALUES ($1, $2, $3, $4, $5) RETURNING seq',
        [name, event.streamId, event.streamVersion, event.eventId, event.type],
      );
      if (opts.failOn?.(event, call)) throw new Error(`cannot project ${event.type} v${event.streamVersion}`);
      return { event, call, rowSeq: rows[0]!.seq };
    },
    async afterCommit(effects) {
      await opts.inAfterCommit?.(effects);
      afterCommits.push(effects);
      committed.push(...effects.map((e) => e.event));
    },
  };
}

describe.each<AdapterName>(['postgres-log', 'kafka'])('event bus contract: %s', (adapter) => {
  let db: TestDatabase;
  let run: string;
  let catalog: PostgresEventStore;
  let orders: PostgresEventStore;
  let bus: EventBus;
  let deliveries: Array<{ consumer: string; event: RecordedEvent; outcome: DeliveryOutcome; attempts: number }>;

  beforeEach(async () => {
    db = await createTestDatabase();
    run = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    await db.pool.query(
      'CREATE TABLE orders.read_model (seq bigserial PRIMARY KEY, consumer text, stream_id text, stream_version int, event_id uuid, type text)',
    );
    catalog = new PostgresEventStore(db.pool, 'catalog');
    orders = new PostgresEventStore(db.pool, 'orders');
    deliveries = [];
    bus = createEventBus({
      pool: db.pool,
      kafkaBrokers: adapter === 'kafka' ? inject('kafkaBrokers').split(',') : undefined,
      // Only catalog's store is in-process; orders' appends reach the bus by NOTIFY, as from another process.
      stores: [catalog],
      retry: RETRY,
      // Far beyond any wait below: deliveries must come from wake-ups, not from polling.
      pollIntervalMs: 60_000,
      topicFor: (source) => `${run}.${topicOf(source)}`,
      // The mock broker holds fetches for maxWaitTimeInMs and rebalances a left group after sessionTimeout - 1 s.
      kafka: { maxWaitTimeInMs: 50, sessionTimeout: 4_000, heartbeatInterval: 500, standbyRetryMs: 200 },
      onDelivered: (d) => deliveries.push(d),
    });
    await bus.startRelay('catalog');
    await bus.startRelay('orders');
  });

  afterEach(async () => {
    await bus.close();
    await db.drop();
  });

  /** Subscribes and, on Kafka, waits for the consumer to join its group (never a fixed sleep). */
  async function live(consumer: EventConsumer): Promise<Subscription> {
    const s = bus.subscribe(consumer);
    await s.start();
    if (s instanceof KafkaSubscription) await s.waitForGroupJoin(30_000);
    return s;
  }

  async function projected(
    consumer: EventConsumer,
    streamId: string,
    version: number,
    timeoutMs = 20_000,
  ): Promise<void> {
    const ok = await waitForProjection({
      pool: db.pool,
      schema: 'orders',
      consumer: consumer.name,
      streamId,
      version,
      timeoutMs,
    });
    expect(ok, `${consumer.name} reached ${streamId} v${version}`).toBe(true);
  }

  async function rows(
    consumer: EventConsumer,
  ): Promise<Array<{ stream_id: string; stream_version: number; event_id: string; type: string }>> {
    const r = await db.pool.query(
      'SELECT stream_id, stream_version, event_id, type FROM orders.read_model WHERE consumer = $1 ORDER BY seq',
      [consumer.name],
    );
    return r.rows;
  }

  /** Makes the adapter deliver everything again: checkpoint back to 0, or the relay republishing the outbox. */
  async function redeliverAll(consumer: EventConsumer): Promise<void> {
    if (adapter === 'postgres-log') {
      await db.pool.query(
        `UPDATE orders.checkpoints SET transaction_id = '0', global_position = 0 WHERE consumer = $1`,
        [consumer.name],
      );
    } else {
      for (const s of consumer.sources) await db.pool.query(`UPDATE ${s}.outbox SET published_at = NULL`);
    }
  }

  it('delivers every event of every source once, in stream order, skipping unwanted types but checkpointing them', async () => {
    const consumer = testConsumer(`${run}-all`, {
      sources: ['catalog', 'orders'],
      eventTypes: ['ProductCreated', 'PriceChanged', 'OrderPlaced'],
    });
    await live(consumer);

    const appends: Array<Promise<unknown>> = [];
    for (const p of ['p1', 'p2', 'p3']) {
      appends.push(
        (async () => {
          await catalog.append(`product-${p}`, 0, [{ type: 'ProductCreated', data: { p } }]);
          await catalog.append(`product-${p}`, 1, [
            { type: 'PriceChanged', data: { pricePaise: 49_900 } },
            { type: 'ProductViewed', data: {} },
          ]);
          await catalog.append(`product-${p}`, 3, [{ type: 'PriceChanged', data: { pricePaise: 39_900 } }]);
        })(),
      );
    }
    appends.push(orders.append('order-1', 0, [{ type: 'OrderPlaced', data: {} }]));
    await Promise.all(appends);

    for (const p of ['p1', 'p2', 'p3']) await projected(consumer, `product-${p}`, 4);
    await projected(consumer, 'order-1', 1);

    const applied = await rows(consumer);
    expect(applied).toHaveLength(10);
    expect(new Set(applied.map((r) => r.event_id)).size).toBe(10);
    expect(applied.some((r) => r.type === 'ProductViewed')).toBe(false);
    for (const p of ['p1', 'p2', 'p3']) {
      expect(applied.filter((r) => r.stream_id === `product-${p}`).map((r) => r.stream_version)).toEqual([1, 2, 4]);
    }
    expect(consumer.committed.map((e) => e.eventId).sort()).toEqual(applied.map((r) => r.event_id).sort());
  });

  it("commits a consumer's read-model write and its progress together: a handler that throws after writing leaves nothing behind", async () => {
    const consumer = testConsumer(`${run}-atomic`, {
      failOn: (e, call) => (e.type === 'FlakyOnce' && call === 1) || e.type === 'AlwaysFails',
    });
    await live(consumer);
    await catalog.append('product-a', 0, [
      { type: 'ProductCreated', data: {} },
      { type: 'FlakyOnce', data: {} },
      { type: 'PriceChanged', data: {} },
    ]);
    await catalog.append('product-b', 0, [{ type: 'AlwaysFails', data: {} }]);
    await catalog.append('product-b', 1, [{ type: 'PriceChanged', data: {} }]);

    await projected(consumer, 'product-a', 3);
    await projected(consumer, 'product-b', 2);

    const applied = await rows(consumer);
    // The flaky event's first, failed attempt wrote a row too; only the successful attempt's row remains.
    expect(applied.filter((r) => r.type === 'FlakyOnce')).toHaveLength(1);
    expect(applied.filter((r) => r.type === 'AlwaysFails')).toHaveLength(0);
    expect(applied.map((r) => `${r.stream_id}@${r.stream_version}`).sort()).toEqual([
      'product-a@1',
      'product-a@2',
      'product-a@3',
      'product-b@2',
    ]);
    expect(consumer.committed.some((e) => e.type === 'AlwaysFails')).toBe(false);
  });

  it('does not apply an event twice when everything is delivered again after a restart', async () => {
    const consumer = testConsumer(`${run}-redeliver`);
    const first = await live(consumer);
    await catalog.append('product-x', 0, [
      { type: 'ProductCreated', data: {} },
      { type: 'PriceChanged', data: {} },
    ]);
    await catalog.append('product-y', 0, [{ type: 'ProductCreated', data: {} }]);
    await projected(consumer, 'product-x', 2);
    await projected(consumer, 'product-y', 1);
    const before = await rows(consumer);
    expect(before).toHaveLength(3);

    await first.stop();
    await redeliverAll(consumer);
    deliveries.length = 0;
    await live(consumer);
    // A last event per stream: once it is in, everything redelivered before it on that stream has been seen.
    await catalog.append('product-x', 2, [{ type: 'PriceChanged', data: {} }]);
    await catalog.append('product-y', 1, [{ type: 'PriceChanged', data: {} }]);
    await projected(consumer, 'product-x', 3);
    await projected(consumer, 'product-y', 2);

    const duplicates = deliveries.filter((d) => d.outcome === 'duplicate').map((d) => d.event.eventId);
    expect(new Set(duplicates)).toEqual(new Set(before.map((r) => r.event_id)));
    const after = await rows(consumer);
    expect(after.slice(0, 3)).toEqual(before);
    expect(after).toHaveLength(5);
  });

  it('retries a poison event with backoff, parks it with its error, keeps going, and replays it once fixed', async () => {
    let fixed = false;
    const consumer = testConsumer(`${run}-poison`, { failOn: (e) => e.type === 'Poison' && !fixed });
    await live(consumer);
    await catalog.append('product-p', 0, [{ type: 'ProductCreated', data: {} }]);
    const poison = await catalog.append('product-p', 1, [{ type: 'Poison', data: { bad: true } }]);
    await catalog.append('product-p', 2, [{ type: 'PriceChanged', data: {} }]);
    await catalog.append('product-q', 0, [{ type: 'ProductCreated', data: {} }]);

    await projected(consumer, 'product-p', 3);
    await projected(consumer, 'product-q', 1);
    const poisonId = poison.events[0]!.eventId;
    expect(consumer.calls.get(poisonId)).toBe(RETRY.attempts);
    const t = consumer.callTimes.get(poisonId)!;
    // Exponential backoff: 20 ms, then 40 ms (a little timer slack allowed).
    expect(t[1]! - t[0]!).toBeGreaterThanOrEqual(RETRY.baseDelayMs - 2);
    expect(t[2]! - t[1]!).toBeGreaterThanOrEqual(2 * RETRY.baseDelayMs - 2);
    expect((await rows(consumer)).map((r) => `${r.stream_id}@${r.stream_version}`).sort()).toEqual([
      'product-p@1',
      'product-p@3',
      'product-q@1',
    ]);

    const parked = await listParkedEvents({ pool: db.pool, schema: 'orders', consumer: consumer.name });
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({
      eventId: poisonId,
      type: 'Poison',
      streamId: 'product-p',
      streamVersion: 2,
      attempts: RETRY.attempts,
      source: 'catalog',
      replayedAt: null,
    });
    expect(parked[0]!.error).toMatch(/cannot project Poison v2/);
    expect(parked[0]!.event).toEqual(poison.events[0]);

    fixed = true;
    expect(await replayParkedEvent({ pool: db.pool, consumer, id: parked[0]!.id })).toBe(true);
    expect((await rows(consumer)).filter((r) => r.type === 'Poison')).toHaveLength(1);
    expect(await listParkedEvents({ pool: db.pool, schema: 'orders', consumer: consumer.name })).toEqual([]);
    const all = await listParkedEvents({
      pool: db.pool,
      schema: 'orders',
      consumer: consumer.name,
      includeReplayed: true,
    });
    expect(all[0]!.replayedAt).toBeInstanceOf(Date);
    expect(await replayParkedEvent({ pool: db.pool, consumer, id: parked[0]!.id })).toBe(false);
    expect(consumer.committed.filter((e) => e.type === 'Poison')).toHaveLength(1);
  });

  it("runs a handler's after-commit effect once per committed event: after the commit, not for a rolled-back attempt, not for a duplicate", async () => {
    // Rows of effects that another connection could not read when their afterCommit ran.
    const unseen: string[] = [];
    const consumer = testConsumer(`${run}-effects`, {
      failOn: (e, call) => e.type === 'FlakyOnce' && call === 1,
      inAfterCommit: async (effects) => {
        const seqs = effects.map((e) => e.rowSeq);
        const { rows: visible } = await db.pool.query<{ seq: string }>(
          'SELECT seq FROM orders.read_model WHERE seq = ANY($1::bigint[])',
          [seqs],
        );
        const seen = new Set(visible.map((r) => String(r.seq)));
        unseen.push(...seqs.filter((seq) => !seen.has(String(seq))));
      },
    });
    const first = await live(consumer);
    // One append, one transaction: the Postgres-log adapter applies them as one batch, which rolls back at
    // FlakyOnce (taking ProductCreated's attempt with it) and is then applied event by event.
    const appended = await catalog.append('product-e', 0, [
      { type: 'ProductCreated', data: {} },
      { type: 'FlakyOnce', data: {} },
      { type: 'PriceChanged', data: {} },
    ]);
    const other = await catalog.append('product-f', 0, [{ type: 'ProductCreated', data: {} }]);
    await projected(consumer, 'product-e', 3);
    await projected(consumer, 'product-f', 1);

    const effects = consumer.afterCommits.flat();
    const ids = [...appended.events, ...other.events].map((e) => e.eventId);
    expect(effects.map((e) => e.event.eventId).sort()).toEqual([...ids].sort());
    // Each effect is the committed call's: the failed attempt of FlakyOnce (and, in a rolled-back batch,
    // of the events before it) returned effects that never reached afterCommit.
    for (const e of effects) expect(e.call).toBe(consumer.calls.get(e.event.eventId));
    expect(consumer.calls.get(appended.events[1]!.eventId)).toBe(2);
    // Run after the commit: when afterCommit ran, another connection could already read each effect's row;
    // and the committed rows are exactly the effects' rows (the rolled-back attempts' rows are gone).
    expect(unseen).toEqual([]);
    const { rows: committedRows } = await db.pool.query<{ seq: string }>(
      'SELECT seq FROM orders.read_model WHERE consumer = $1',
      [consumer.name],
    );
    expect(committedRows.map((r) => String(r.seq)).sort()).toEqual(effects.map((e) => String(e.rowSeq)).sort());
    // In event order within each afterCommit call.
    for (const batch of consumer.afterCommits) {
      const versions = batch.filter((e) => e.event.streamId === 'product-e').map((e) => e.event.streamVersion);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }

    // Everything delivered again: duplicates return no effect, only the new event's comes through.
    await first.stop();
    await redeliverAll(consumer);
    deliveries.length = 0;
    consumer.afterCommits.length = 0;
    await live(consumer);
    // A last event per stream: once it is in, everything redelivered before it on that stream has been seen.
    const lastE = await catalog.append('product-e', 3, [{ type: 'PriceChanged', data: {} }]);
    const lastF = await catalog.append('product-f', 1, [{ type: 'PriceChanged', data: {} }]);
    await projected(consumer, 'product-e', 4);
    await projected(consumer, 'product-f', 2);
    const duplicates = deliveries.filter((d) => d.outcome === 'duplicate').map((d) => d.event.eventId);
    expect(new Set(duplicates)).toEqual(new Set(ids));
    expect(
      consumer.afterCommits
        .flat()
        .map((e) => e.event.eventId)
        .sort(),
    ).toEqual([lastE.events[0]!.eventId, lastF.events[0]!.eventId].sort());
    expect(unseen).toEqual([]);
  });

  it('waitForProjection resolves true once the read model holds the write, and false on timeout', async () => {
    const consumer = testConsumer(`${run}-ryw`, { sources: ['orders'] });
    await live(consumer);
    const waiting = waitForProjection({
      pool: db.pool,
      schema: 'orders',
      consumer: consumer.name,
      streamId: 'order-7',
      version: 2,
      timeoutMs: 20_000,
    });
    const { nextExpectedVersion } = await orders.append('order-7', 0, [
      { type: 'OrderPlaced', data: {} },
      { type: 'DeliveryStatusChanged', data: {} },
    ]);
    expect(nextExpectedVersion).toBe(2);
    expect(await waiting).toBe(true);
    // Read-your-writes: at that moment the projection already shows both events.
    expect((await rows(consumer)).map((r) => r.stream_version)).toEqual([1, 2]);

    const started = Date.now();
    expect(
      await waitForProjection({
        pool: db.pool,
        schema: 'orders',
        consumer: consumer.name,
        streamId: 'order-7',
        version: 3,
        timeoutMs: 300,
      }),
    ).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('resumes from its checkpoint after a restart, with events appended while it was down', async () => {
    const consumer = testConsumer(`${run}-resume`, { sources: ['catalog', 'orders'] });
    const first = await live(consumer);
    await catalog.append('product-r', 0, [
      { type: 'ProductCreated', data: {} },
      { type: 'PriceChanged', data: {} },
    ]);
    await orders.append('order-r', 0, [{ type: 'OrderPlaced', data: {} }]);
    await projected(consumer, 'product-r', 2);
    await projected(consumer, 'order-r', 1);
    await first.stop();

    await catalog.append('product-r', 2, [{ type: 'PriceChanged', data: {} }]);
    await orders.append('order-r', 1, [{ type: 'DeliveryStatusChanged', data: {} }]);
    deliveries.length = 0;
    await live(consumer);
    await projected(consumer, 'product-r', 3);
    await projected(consumer, 'order-r', 2);

    // Only the new events were delivered: the restart read from the checkpoint, not from the start.
    expect(deliveries.map((d) => `${d.event.streamId}@${d.event.streamVersion}:${d.outcome}`).sort()).toEqual([
      'order-r@2:handled',
      'product-r@3:handled',
    ]);
    expect((await rows(consumer)).map((r) => `${r.stream_id}@${r.stream_version}`).sort()).toEqual([
      'order-r@1',
      'order-r@2',
      'product-r@1',
      'product-r@2',
      'product-r@3',
    ]);
  });

  it('wakes on a commit made by another process, without waiting for the poll', async () => {
    const consumer = testConsumer(`${run}-notify`, { sources: ['orders'] });
    await live(consumer);
    const otherProcess = createPool(db.url, 2);
    try {
      const started = Date.now();
      await new PostgresEventStore(otherProcess, 'orders').append('order-n', 0, [{ type: 'OrderPlaced', data: {} }]);
      await projected(consumer, 'order-n', 1, 10_000);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await otherProcess.end();
    }
  });
});

describe('event bus: adapter selection', () => {
  it('uses Kafka when brokers are given and the Postgres log otherwise', async () => {
    const db = await createTestDatabase();
    try {
      const pg = createEventBus({ pool: db.pool });
      const kafka = createEventBus({ pool: db.pool, kafkaBrokers: inject('kafkaBrokers').split(',') });
      expect([pg.kind, kafka.kind]).toEqual(['postgres-log', 'kafka']);
      await pg.startRelay('catalog'); // no-op without Kafka
      await Promise.all([pg.health(), kafka.health()]);
      await Promise.all([pg.close(), kafka.close()]);
    } finally {
      await db.drop();
    }
  });
});
