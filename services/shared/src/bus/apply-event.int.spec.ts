import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@shop/test-support/test-database';
import type { RecordedEvent } from '../eventstore/types.ts';
import { claimEvents } from './apply-event.ts';
import { inTransaction } from './transaction.ts';
import type { EventConsumer } from './types.ts';

describe('claimEvents', () => {
  let db: TestDatabase;
  const consumer: EventConsumer = {
    name: 'claim-test',
    schema: 'orders',
    sources: ['catalog'],
    eventTypes: ['Wanted'],
    handle: async () => undefined,
  };
  let position = 0n;
  const event = (streamId: string, streamVersion: number, type = 'Wanted'): RecordedEvent => ({
    eventId: randomUUID(),
    streamId,
    streamVersion,
    type,
    schemaVersion: 1,
    data: {},
    metadata: { occurredAt: new Date().toISOString() },
    globalPosition: (position += 1n),
    transactionId: 1n,
    source: 'catalog',
  });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('claims a batch in one statement: each stream at its highest version, events above the recorded one in order', async () => {
    await db.pool.query(
      `INSERT INTO orders.consumer_streams (consumer, stream_id, stream_version)
       VALUES ('claim-test', 'a', 2), ('claim-test', 'c', 7)`,
    );
    const batch = [
      event('a', 1), // recorded 2: duplicate
      event('a', 2), // duplicate
      event('b', 1), // never seen: claimed
      event('a', 3), // claimed (two of one stream above the recorded version)
      event('d', 1, 'Unwanted'), // not its type: ignored, nothing recorded
      event('c', 5), // recorded 7: duplicate
      event('a', 4), // claimed
    ];
    const claims = await inTransaction(db.pool, async (tx) => {
      const query = vi.spyOn(tx, 'query');
      try {
        return { claims: await claimEvents(tx, consumer, batch), statements: query.mock.calls.length };
      } finally {
        query.mockRestore();
      }
    });
    expect(claims).toEqual({
      claims: ['duplicate', 'duplicate', 'claimed', 'claimed', 'ignored', 'duplicate', 'claimed'],
      statements: 1,
    });
    const { rows } = await db.pool.query(
      `SELECT stream_id, stream_version FROM orders.consumer_streams WHERE consumer = 'claim-test' ORDER BY stream_id`,
    );
    expect(rows).toEqual([
      { stream_id: 'a', stream_version: 4 },
      { stream_id: 'b', stream_version: 1 },
      { stream_id: 'c', stream_version: 7 },
    ]);
    // Delivered again (a restart before the checkpoint moved): all duplicates.
    const again = await inTransaction(db.pool, (tx) => claimEvents(tx, consumer, batch));
    expect(again).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'ignored', 'duplicate', 'duplicate']);
  });
});
