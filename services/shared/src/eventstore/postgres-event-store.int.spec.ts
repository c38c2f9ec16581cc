import { describe, expect, it } from 'vitest';
import { testEventStore } from '@shop/test-support/test-event-store';
import { PostgresEventStore, StreamVersionConflictError } from './postgres-event-store.ts';

const testLog = testEventStore('catalog');

describe('PostgresEventStore', () => {
  it('appends with an expected version, writes outbox rows in the same transaction, reads the stream back', async () => {
    const r = await testLog.store.append('product-a', 0, [
      { type: 'ProductCreated', data: { name: 'Kurta' } },
      { type: 'ProductRenamed', data: { name: 'Silk Kurta' } },
    ]);
    expect(r.nextExpectedVersion).toBe(2);
    const events = await testLog.store.readStream('product-a');
    expect(events.map((e) => [e.streamVersion, e.type])).toEqual([
      [1, 'ProductCreated'],
      [2, 'ProductRenamed'],
    ]);
    const outbox = await testLog.db.pool.query(
      'SELECT event_id FROM catalog.outbox WHERE stream_id = $1 ORDER BY global_position',
      ['product-a'],
    );
    expect(outbox.rows.map((o) => o.event_id)).toEqual(events.map((e) => e.eventId));
  });

  it('refuses an append at a stale version with a clear conflict error and writes nothing', async () => {
    await testLog.store.append('product-b', 0, [{ type: 'ProductCreated', data: {} }]);
    await expect(testLog.store.append('product-b', 0, [{ type: 'ProductCreated', data: {} }])).rejects.toThrow(
      /product-b is at version 1, expected 0/,
    );
    expect(await testLog.store.readStream('product-b')).toHaveLength(1);
  });

  it('50 concurrent appends with the same expected version: exactly one wins, no gaps', async () => {
    await testLog.store.append('stock-x', 0, [{ type: 'StockSet', data: { n: 0 } }]);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        testLog.store.append('stock-x', 1, [{ type: 'StockAdjusted', data: { i } }]),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const l of lost) expect(l.reason).toBeInstanceOf(StreamVersionConflictError);
    const versions = (await testLog.store.readStream('stock-x')).map((e) => e.streamVersion);
    expect(versions).toEqual([1, 2]);
    const outbox = await testLog.db.pool.query(
      `SELECT count(*)::int AS n FROM catalog.outbox WHERE stream_id = 'stock-x'`,
    );
    expect(outbox.rows[0].n).toBe(2);
  });

  it('reads the global log in commit-safe order and upcasts old schema versions', async () => {
    const all = await testLog.store.readAll();
    expect(all.length).toBeGreaterThanOrEqual(5);
    const after = await testLog.store.readAll({
      transactionId: all[1]!.transactionId,
      globalPosition: all[1]!.globalPosition,
    });
    expect(after.map((e) => e.eventId)).toEqual(all.slice(2).map((e) => e.eventId));

    await testLog.store.append('product-old', 0, [{ type: 'PriceSet', data: { price: 499 } }]);
    const upcasting = new PostgresEventStore(testLog.db.pool, 'catalog');
    upcasting.registerSchemaVersion('PriceSet', 2, (e) => ({
      ...e,
      schemaVersion: 2,
      data: { pricePaise: (e.data as { price: number }).price * 100 },
    }));
    const [ev] = await upcasting.readStream('product-old');
    expect(ev).toMatchObject({ schemaVersion: 2, data: { pricePaise: 49900 } });
  });
});
