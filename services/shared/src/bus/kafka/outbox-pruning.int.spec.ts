import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { waitUntil } from '@shop/test-support/wait-until';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import { silentLogger } from '../logger.ts';
import { createKafkaClient } from './kafka-client.ts';
import { KafkaOutboxRelay } from './kafka-outbox-relay.ts';
import { prunePublishedOutbox } from './outbox-pruning.ts';

let db: TestDatabase;
let store: PostgresEventStore;
beforeEach(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, 'checkout');
});
afterEach(() => db.drop());

/** Appends `n` one-event streams; returns their global positions in order. */
async function appendEvents(n: number): Promise<string[]> {
  const positions: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await store.append(`payment-${randomBytes(4).toString('hex')}`, 0, [
      { type: 'PaymentOrderCreated', data: { i } },
    ]);
    positions.push(r.events[0]!.globalPosition.toString());
  }
  return positions;
}

const outbox = async () =>
  (
    await db.pool.query<{ global_position: string; published: boolean }>(
      `SELECT o.global_position::text AS global_position, o.published_at IS NOT NULL AS published
         FROM checkout.outbox o ORDER BY o.global_position`,
    )
  ).rows;

/** Marks rows published `minutesAgo` minutes ago (as the relay would have, back then). */
const publishedAgo = (positions: string[], minutesAgo: number) =>
  db.pool.query(
    `UPDATE checkout.outbox SET published_at = now() - make_interval(mins => $2) WHERE global_position = ANY($1::bigint[])`,
    [positions, minutesAgo],
  );

describe('prunePublishedOutbox', () => {
  it('deletes rows published before the retention, oldest first and at most a batch; never an unpublished row', async () => {
    const [p1, p2, p3, recent, unpublished] = await appendEvents(5);
    await publishedAgo([p1!, p2!, p3!], 90);
    await publishedAgo([recent!], 10);
    // An unpublished row as old as can be: still owed to Kafka.
    await db.pool.query(`UPDATE checkout.outbox SET created_at = now() - interval '1 day' WHERE global_position = $1`, [
      unpublished,
    ]);

    expect(await prunePublishedOutbox(db.pool, 'checkout', 60 * 60_000, 2)).toBe(2);
    expect((await outbox()).map((r) => r.global_position)).toEqual([p3, recent, unpublished]);
    expect(await prunePublishedOutbox(db.pool, 'checkout', 60 * 60_000, 2)).toBe(1);
    expect(await prunePublishedOutbox(db.pool, 'checkout', 60 * 60_000, 2)).toBe(0);
    expect(await outbox()).toEqual([
      { global_position: recent, published: true },
      { global_position: unpublished, published: false },
    ]);
    // The events themselves stay in the log.
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout.events');
    expect(rows[0]!.n).toBe(5);
  });
});

describe('KafkaOutboxRelay prunes what it published', () => {
  const kafka = createKafkaClient({
    brokers: inject('kafkaBrokers').split(','),
    clientId: 'prune-test',
    logger: silentLogger,
  });
  let relay: KafkaOutboxRelay | undefined;
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  it('deletes rows published longer ago than publishedRetentionMs, in batches, and keeps the rest', async () => {
    const topic = `p${Date.now().toString(36)}${randomBytes(3).toString('hex')}.shop.checkout.events`;
    const old = await appendEvents(5);
    relay = new KafkaOutboxRelay({
      pool: db.pool,
      kafka,
      schema: 'checkout',
      stores: [store],
      topicFor: () => topic,
      standbyRetryMs: 100,
      pollIntervalMs: 100,
      publishedRetentionMs: 30 * 60_000,
      pruneEveryMs: 100,
      pruneBatchSize: 2,
    });
    await relay.start();
    await waitUntil(async () => (await outbox()).every((r) => r.published), 'the first 5 rows published');
    // Published (in the outbox's eyes) an hour ago: past the 30 minutes kept.
    await publishedAgo(old, 60);
    const fresh = await appendEvents(2);

    await waitUntil(async () => (await outbox()).length === 2, 'the 5 old rows pruned, 2 per batch');
    await waitUntil(async () => (await outbox()).every((r) => r.published), 'the 2 new rows published');
    expect((await outbox()).map((r) => r.global_position)).toEqual(fresh);
  });
});
