import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RecordedEvent } from '../eventstore/types.ts';
import { changedColumns, type UncheckedEvents } from './projection.ts';
import { defineReadModel, readModelConsumer } from './projection-read-model.ts';
import { table } from './projection-rows.ts';

type Placed = { type: 'Placed'; data: { orderId: string; total: number } };
type Cancelled = { type: 'Cancelled'; data: { orderId: string; reason: string } };
type Archived = { type: 'Archived'; data: { orderId: string } };

const recorded = (type: string, data: unknown, streamVersion = 1): RecordedEvent => ({
  globalPosition: 7n,
  transactionId: 1n,
  streamId: 'order-1',
  streamVersion,
  eventId: 'e-1',
  type,
  schemaVersion: 1,
  data: data as object,
  metadata: { occurredAt: '2026-01-01T00:00:00.000Z' },
  source: 'orders',
});

const tables = {
  orders: table('orders.test', { key: ['id'], columns: ['id', 'total', 'reason', 'version'] }),
};
const orders = defineReadModel<Placed | Cancelled | Archived, typeof tables, string>({
  name: 'orders.test',
  schema: 'orders',
  sources: ['orders', 'checkout'],
  tables,
  evolve: {
    Placed(d, rows, event) {
      expectTypeOf(d).toEqualTypeOf<{ orderId: string; total: number }>();
      rows.orders.insert({ id: d.orderId, total: d.total, reason: null, version: event.streamVersion });
      return `placed ${d.orderId}`;
    },
    Cancelled(d, rows) {
      expectTypeOf(d).toEqualTypeOf<{ orderId: string; reason: string }>();
      rows.orders.update(d.orderId, { reason: d.reason });
    },
  },
});

/** Given these events, then the rows of each table, run in memory. */
function given(...events: RecordedEvent[]) {
  const fold = orders.fold();
  for (const e of events) fold.apply(e);
  return Object.fromEntries(fold.tables().map((t) => [t.table, [...t.rows]]));
}

describe('defineReadModel', () => {
  it('declares its tables and its event types (the evolve keys, in the order declared)', () => {
    expect(orders).toMatchObject({ name: 'orders.test', schema: 'orders', sources: ['orders', 'checkout'] });
    expect(orders.eventTypes).toEqual(['Placed', 'Cancelled']);
    expect(orders.tables).toEqual(['orders.test']);
  });

  it("given events, gives each event's data, the rows and the recorded event to its type's evolve", () => {
    expect(
      given(
        recorded('Placed', { orderId: 'o1', total: 5 }, 3),
        recorded('Cancelled', { orderId: 'o1', reason: 'late' }),
      ),
    ).toEqual({
      'orders.test': [['o1', 5, 'late', 3]],
    });
  });

  it('passes over a type it does not handle, inherited names included', () => {
    expect(given(recorded('Archived', { orderId: 'o1' }), recorded('toString', {}))).toEqual({ 'orders.test': [] });
  });

  it('is a live consumer with the same identity, and keeps its afterCommit', async () => {
    const seen: string[][] = [];
    const consumer = readModelConsumer(orders, (effects) => void seen.push(effects));
    expect(consumer).toMatchObject({ name: 'orders.test', eventTypes: ['Placed', 'Cancelled'], readModel: orders });
    await consumer.afterCommit?.(['placed o1']);
    expect(seen).toEqual([['placed o1']]);
    expect('afterCommit' in readModelConsumer(orders)).toBe(false);
  });

  it('gives unchecked events their data as unknown', () => {
    const model = defineReadModel<UncheckedEvents<'A' | 'B'>, typeof tables>({
      name: 'x',
      schema: 'x',
      sources: ['x'],
      tables,
      evolve: {
        A(data) {
          expectTypeOf(data).toEqualTypeOf<unknown>();
        },
      },
    });
    expect(model.eventTypes).toEqual(['A']);
  });

  it('refuses, at compile time, an evolve for a type not among its events', () => {
    defineReadModel<Placed, typeof tables>({
      name: 'x',
      schema: 'x',
      sources: ['x'],
      tables,
      evolve: {
        // @ts-expect-error: no such event
        Shipped() {},
      },
    });
  });
});

describe('changedColumns', () => {
  it('picks the changed fields that map to columns, in their order', () => {
    const columns = { name: 'name', pricePaise: 'price_paise', sizeLabels: 'size_labels' };
    expect(changedColumns({ pricePaise: 100, other: 1, name: 'Kurta' }, columns)).toEqual({
      columns: ['price_paise', 'name'],
      values: [100, 'Kurta'],
    });
    expect(changedColumns({ other: 1 }, columns)).toEqual({ columns: [], values: [] });
  });
});
