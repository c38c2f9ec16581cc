import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEventStore } from '@shop/test-support/test-event-store';
import { NewStreamAppender } from './new-stream-appender.ts';
import { StreamVersionConflictError } from './postgres-event-store.ts';
import type { RecordedEvent } from './types.ts';

const testLog = testEventStore('checkout');
const told: RecordedEvent[] = [];
beforeAll(() => {
  testLog.store.onAppended((events) => told.push(...events));
});

const opened = (i: number) => ({ type: 'PaymentOrderOpened', data: { razorpayOrderId: `order_${i}`, amountPaise: i } });

/** The rows of these streams in checkout.events (and their outbox rows), by stream. */
async function rowsOf(streamIds: string[]) {
  const events = await testLog.db.pool.query<{
    stream_id: string;
    stream_version: number;
    event_id: string;
    tx: string;
  }>(
    `SELECT stream_id, stream_version, event_id, transaction_id::text AS tx FROM checkout.events
      WHERE stream_id = ANY($1) ORDER BY global_position`,
    [streamIds],
  );
  const outbox = await testLog.db.pool.query<{ event_id: string; stream_id: string; type: string }>(
    `SELECT event_id, stream_id, type FROM checkout.outbox WHERE stream_id = ANY($1)`,
    [streamIds],
  );
  return { events: events.rows, outbox: outbox.rows };
}

describe('NewStreamAppender (group commit of new streams)', () => {
  it('200 concurrent starts on distinct streams: all at version 1, readable, in a few transactions, with outbox rows and listeners told', async () => {
    const appender = new NewStreamAppender(testLog.store);
    const run = randomUUID().slice(0, 8);
    const streamIds = Array.from({ length: 200 }, (_, i) => `payment-${run}-${i}`);
    told.length = 0;
    const results = await Promise.all(
      streamIds.map((id, i) => appender.start(id, [opened(i)], { actor: `user-${i}` })),
    );

    // Each caller gets its own stream's result.
    results.forEach((r, i) => {
      expect(r.nextExpectedVersion).toBe(1);
      expect(r.events).toHaveLength(1);
      expect(r.events[0]).toMatchObject({
        streamId: streamIds[i],
        streamVersion: 1,
        type: 'PaymentOrderOpened',
        data: { razorpayOrderId: `order_${i}`, amountPaise: i },
        metadata: { actor: `user-${i}` },
      });
      expect(r.lastGlobalPosition).toBe(r.events[0]!.globalPosition);
    });
    for (const [i, id] of streamIds.entries()) {
      const read = await testLog.store.readStream(id);
      expect(read.map((e) => [e.streamVersion, e.type, e.eventId])).toEqual([
        [1, 'PaymentOrderOpened', results[i]!.events[0]!.eventId],
      ]);
    }

    const { events, outbox } = await rowsOf(streamIds);
    expect(events).toHaveLength(200);
    // Group commit: far fewer transactions than appends (the first start writes alone, the rest queue behind it).
    const transactions = new Set(events.map((e) => e.tx)).size;
    expect(transactions).toBeLessThanOrEqual(10);
    // Every event has its outbox row, for the stream and type it belongs to.
    expect(outbox.map((o) => `${o.stream_id}/${o.event_id}/${o.type}`).sort()).toEqual(
      events.map((e) => `${e.stream_id}/${e.event_id}/PaymentOrderOpened`).sort(),
    );
    // In-process listeners heard of every event, once.
    expect(told.map((e) => e.eventId).sort()).toEqual(events.map((e) => e.event_id).sort());
  });

  it('a start on a stream that exists rejects with StreamVersionConflictError; the others of its batch are written', async () => {
    const appender = new NewStreamAppender(testLog.store);
    const run = randomUUID().slice(0, 8);
    const existing = `payment-${run}-existing`;
    await testLog.store.append(existing, 0, [opened(-1)]);
    const streamIds = Array.from({ length: 30 }, (_, i) => (i === 17 ? existing : `payment-${run}-${i}`));
    told.length = 0;
    // Two events per stream: each caller's result must carry its own two.
    const settled = await Promise.allSettled(
      streamIds.map((id, i) => appender.start(id, [opened(i), opened(i + 1000)])),
    );

    const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [[i, s.reason] as const] : []));
    expect(failed.map(([i]) => i)).toEqual([17]);
    expect(failed[0]![1]).toBeInstanceOf(StreamVersionConflictError);
    expect((failed[0]![1] as StreamVersionConflictError).streamId).toBe(existing);

    const fresh = streamIds.filter((id) => id !== existing);
    settled.forEach((s, i) => {
      if (i === 17) return;
      expect(s).toMatchObject({ status: 'fulfilled', value: { nextExpectedVersion: 2 } });
      const r = (s as PromiseFulfilledResult<{ events: RecordedEvent[] }>).value;
      expect(
        r.events.map((e) => [e.streamId, e.streamVersion, (e.data as { amountPaise: number }).amountPaise]),
      ).toEqual([
        [streamIds[i], 1, i],
        [streamIds[i], 2, i + 1000],
      ]);
    });
    // The existing stream is untouched; each new one holds exactly its two events, with outbox rows.
    expect((await testLog.store.readStream(existing)).map((e) => e.data)).toEqual([opened(-1).data]);
    const { events, outbox } = await rowsOf(fresh);
    expect(events).toHaveLength(58);
    expect(outbox.map((o) => o.event_id).sort()).toEqual(events.map((e) => e.event_id).sort());
    expect(told.map((e) => e.eventId).sort()).toEqual(events.map((e) => e.event_id).sort());
  });

  it('appendToNewStreams is all or nothing: a batch naming an existing stream writes nothing and names it', async () => {
    const run = randomUUID().slice(0, 8);
    const existing = `payment-${run}-existing`;
    await testLog.store.append(existing, 0, [opened(0)]);
    const others = [`payment-${run}-a`, `payment-${run}-b`];
    const err = await testLog.store
      .appendToNewStreams([
        { streamId: others[0]!, events: [opened(1)] },
        { streamId: existing, events: [opened(2)] },
        { streamId: others[1]!, events: [opened(3)] },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamVersionConflictError);
    expect((err as StreamVersionConflictError).streamId).toBe(existing);
    const { events, outbox } = await rowsOf(others);
    expect(events).toEqual([]);
    expect(outbox).toEqual([]);
  });
});
