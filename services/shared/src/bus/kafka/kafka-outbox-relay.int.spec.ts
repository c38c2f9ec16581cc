import { randomBytes } from 'node:crypto';
import type { Consumer, KafkaMessage } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import { PostgresEventStore } from '../../eventstore/postgres-event-store.ts';
import { decodeEvent } from '../event-codec.ts';
import { silentLogger } from '../logger.ts';
import { createKafkaClient } from './kafka-client.ts';
import { KafkaOutboxRelay } from './kafka-outbox-relay.ts';
import { waitUntil } from '@shop/test-support/wait-until';

describe('KafkaOutboxRelay', () => {
  const kafka = createKafkaClient({
    brokers: inject('kafkaBrokers').split(','),
    clientId: 'relay-test',
    logger: silentLogger,
  });
  let db: TestDatabase;
  let store: PostgresEventStore;
  let topic: string;
  let relays: KafkaOutboxRelay[];
  let reader: Consumer | undefined;
  const received: KafkaMessage[] = [];

  beforeEach(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, 'checkout');
    topic = `r${Date.now().toString(36)}${randomBytes(3).toString('hex')}.shop.checkout.events`;
    relays = [];
    received.length = 0;
  });

  afterEach(async () => {
    await reader?.disconnect();
    reader = undefined;
    for (const r of relays) await r.stop();
    await db.drop();
  });

  function relay(): KafkaOutboxRelay {
    const r = new KafkaOutboxRelay({
      pool: db.pool,
      kafka,
      schema: 'checkout',
      topicFor: () => topic,
      standbyRetryMs: 100,
      pollIntervalMs: 60_000,
    });
    relays.push(r);
    return r;
  }

  /** Reads the topic from the beginning in a group of its own; resolves once joined. */
  async function readTopic(): Promise<void> {
    reader = kafka.consumer({
      groupId: `${topic}-reader`,
      maxWaitTimeInMs: 50,
      sessionTimeout: 4_000,
      heartbeatInterval: 500,
    });
    const joined = new Promise<void>((resolve) => reader!.on(reader!.events.GROUP_JOIN, () => resolve()));
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void received.push(message) });
    await joined;
  }

  const activeCount = (): number => relays.filter((r) => r.isActive).length;

  it('publishes each outbox row keyed by stream id with event headers, in stream order, and marks it published', async () => {
    await relay().start();
    await readTopic();
    const a = await store.append('payment-1', 0, [
      { type: 'PaymentOrderCreated', data: { amountPaise: 129_900 } },
      { type: 'PaymentVerified', data: {} },
    ]);
    const b = await store.append('payment-2', 0, [{ type: 'PaymentOrderCreated', data: {} }]);
    const events = [...a.events, ...b.events];

    await waitUntil(() => received.length >= 3, '3 messages');
    for (const e of events) {
      const m = received.find((x) => x.headers?.['event-id']?.toString() === e.eventId)!;
      expect(m.key?.toString()).toBe(e.streamId);
      expect(m.headers?.['event-type']?.toString()).toBe(e.type);
      expect(m.headers?.source?.toString()).toBe('checkout');
      expect(decodeEvent(m.value!)).toEqual(e);
    }
    const payment1 = received
      .filter((m) => m.key?.toString() === 'payment-1')
      .map((m) => decodeEvent(m.value!).streamVersion);
    expect(payment1).toEqual([1, 2]);
    await waitUntil(
      async () =>
        (await db.pool.query('SELECT count(*)::int AS n FROM checkout.outbox WHERE published_at IS NULL')).rows[0].n ===
        0,
      'outbox marked',
    );
  });

  it('keeps one active relay per schema; a standby takes over when the active one stops or its session dies', async () => {
    const [first, second, third] = [relay(), relay(), relay()];
    await Promise.all([first.start(), second.start(), third.start()]);
    await waitUntil(() => activeCount() === 1, 'an active relay');
    await readTopic();
    await store.append('payment-a', 0, [{ type: 'PaymentOrderCreated', data: {} }]);
    await waitUntil(() => received.length >= 1, 'first message');
    expect(activeCount()).toBe(1);

    // A clean stop hands over.
    const leader = relays.find((r) => r.isActive)!;
    await leader.stop();
    await waitUntil(() => activeCount() === 1, 'a new active relay');
    await store.append('payment-b', 0, [{ type: 'PaymentOrderCreated', data: {} }]);
    await waitUntil(() => received.some((m) => m.key?.toString() === 'payment-b'), 'second message');

    // The active relay's database session is killed: it steps down and a standby takes over.
    const { rows } = await db.pool.query(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 727002 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows).toHaveLength(1);
    await db.pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await store.append('payment-c', 0, [{ type: 'PaymentOrderCreated', data: {} }]);
    await waitUntil(
      () => received.some((m) => m.key?.toString() === 'payment-c'),
      'third message after the lock holder died',
    );
    expect(activeCount()).toBe(1);
    expect(new Set(received.map((m) => m.key?.toString()))).toEqual(new Set(['payment-a', 'payment-b', 'payment-c']));
  });
});
