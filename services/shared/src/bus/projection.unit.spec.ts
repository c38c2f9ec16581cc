import type { PoolClient } from 'pg';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RecordedEvent } from '../eventstore/types.ts';
import { changedColumns, changedDetailsUpdate, defineProjection, type UncheckedEvents } from './projection.ts';

type Placed = { type: 'Placed'; data: { orderId: string; total: number } };
type Cancelled = { type: 'Cancelled'; data: { orderId: string; reason: string } };
type Archived = { type: 'Archived'; data: { orderId: string } };

const recorded = (type: string, data: unknown): RecordedEvent => ({
  globalPosition: 7n,
  transactionId: 1n,
  streamId: 'order-1',
  streamVersion: 3,
  eventId: 'e-1',
  type,
  schemaVersion: 1,
  data: data as object,
  metadata: { occurredAt: '2026-01-01T00:00:00.000Z' },
  source: 'orders',
});

/** A transaction that records its queries. */
function recordingTx() {
  const queries: Array<{ sql: string; params: unknown[] }> = [];
  const tx = {
    query: async (sql: string, params: unknown[]) => {
      queries.push({ sql, params });
      return { rows: [], rowCount: 1 };
    },
  } as unknown as PoolClient;
  return { tx, queries };
}

describe('defineProjection', () => {
  const projection = (afterCommit?: (effects: string[]) => void) =>
    defineProjection<Placed | Cancelled | Archived, string>({
      name: 'orders.test',
      schema: 'orders',
      sources: ['orders', 'checkout'],
      on: {
        async Placed(d, tx, event) {
          expectTypeOf(d).toEqualTypeOf<{ orderId: string; total: number }>();
          await tx.query('INSERT', [d.orderId, d.total, event.streamVersion]);
          return `placed ${d.orderId}`;
        },
        async Cancelled(d, tx) {
          expectTypeOf(d).toEqualTypeOf<{ orderId: string; reason: string }>();
          await tx.query('UPDATE', [d.orderId, d.reason]);
        },
      },
      ...(afterCommit ? { afterCommit } : {}),
    });

  it('is an EventConsumer whose eventTypes are the handled types, in the order declared', () => {
    const consumer = projection();
    expect(consumer.name).toBe('orders.test');
    expect(consumer.schema).toBe('orders');
    expect(consumer.sources).toEqual(['orders', 'checkout']);
    expect(consumer.eventTypes).toEqual(['Placed', 'Cancelled']);
    expect('afterCommit' in consumer).toBe(false);
  });

  it("gives each event's data, the transaction and the recorded event to its type's handler, and answers its effect", async () => {
    const consumer = projection();
    const { tx, queries } = recordingTx();
    expect(await consumer.handle(recorded('Placed', { orderId: 'o1', total: 5 }), tx)).toBe('placed o1');
    expect(await consumer.handle(recorded('Cancelled', { orderId: 'o1', reason: 'late' }), tx)).toBeUndefined();
    expect(queries).toEqual([
      { sql: 'INSERT', params: ['o1', 5, 3] },
      { sql: 'UPDATE', params: ['o1', 'late'] },
    ]);
  });

  it('passes over a type it does not handle (the bus never offers one), inherited names included', async () => {
    const consumer = projection();
    const { tx, queries } = recordingTx();
    expect(await consumer.handle(recorded('Archived', { orderId: 'o1' }), tx)).toBeUndefined();
    expect(await consumer.handle(recorded('toString', {}), tx)).toBeUndefined();
    expect(queries).toEqual([]);
  });

  it('keeps its afterCommit', async () => {
    const seen: string[][] = [];
    const consumer = projection((effects) => void seen.push(effects));
    await consumer.afterCommit?.(['placed o1']);
    expect(seen).toEqual([['placed o1']]);
  });

  it('gives unchecked events their data as unknown', async () => {
    const consumer = defineProjection<UncheckedEvents<'A' | 'B'>>({
      name: 'x',
      schema: 'x',
      sources: ['x'],
      on: {
        async A(data) {
          expectTypeOf(data).toEqualTypeOf<unknown>();
          return data;
        },
      },
    });
    expect(consumer.eventTypes).toEqual(['A']);
    expect(await consumer.handle(recorded('A', { n: 1 }), recordingTx().tx)).toEqual({ n: 1 });
  });

  it('refuses, at compile time, a handler for a type not among its events', () => {
    defineProjection<Placed>({
      name: 'x',
      schema: 'x',
      sources: ['x'],
      on: {
        // @ts-expect-error: no such event
        async Shipped() {},
      },
    });
  });
});

describe('changedColumns and changedDetailsUpdate', () => {
  const columns = { name: 'name', pricePaise: 'price_paise', sizeLabels: 'size_labels' };

  it('pick the changed fields that map to columns, in their order', () => {
    expect(changedColumns({ pricePaise: 100, other: 1, name: 'Kurta' }, columns)).toEqual({
      columns: ['price_paise', 'name'],
      values: [100, 'Kurta'],
    });
    expect(changedColumns({ other: 1 }, columns)).toEqual({ columns: [], values: [] });
  });

  it('update the changed columns and updated_at by id; with nothing mapped, updated_at alone or nothing', async () => {
    const { tx, queries } = recordingTx();
    const products = changedDetailsUpdate('catalog.products', columns);
    await products(tx, 'p1', 't1', { sizeLabels: null, other: 1, name: 'Kurta' });
    await products(tx, 'p1', 't2', { other: 1 });
    await changedDetailsUpdate('catalog.products', columns, { skipWhenUnchanged: true })(tx, 'p1', 't3', {});
    expect(queries).toEqual([
      {
        sql: 'UPDATE catalog.products SET size_labels = $3, name = $4, updated_at = $2 WHERE id = $1',
        params: ['p1', 't1', null, 'Kurta'],
      },
      { sql: 'UPDATE catalog.products SET updated_at = $2 WHERE id = $1', params: ['p1', 't2'] },
    ]);
  });
});
