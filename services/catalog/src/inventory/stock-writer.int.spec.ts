import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { testEventStore } from '@shop/test-support/test-event-store';
import {
  evolveStock,
  initialStockState,
  InsufficientStockError,
  type StockCommand,
  type StockState,
} from '../stock/decider.ts';
import { stockStreamId, type StockEvent } from '../stock/events.ts';
import { SOLD_OUT_TRUSTED_MS, StockWriter } from './stock-writer.ts';

const testLog = testEventStore('catalog');

/**
 * The writer's trust window is measured with performance.now(); the test holds that clock still (and far
 * from 0, the writer's "stale" mark) so that "within SOLD_OUT_TRUSTED_MS" never depends on machine speed.
 */
let clock = 0;
let queries = 0;
beforeEach(() => {
  clock = 1_000_000;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  // Every trip to Postgres: readStream goes through pool.query, append through pool.connect.
  const pool = testLog.db.pool;
  const query = pool.query.bind(pool) as typeof pool.query;
  const connect = pool.connect.bind(pool) as typeof pool.connect;
  vi.spyOn(pool, 'query').mockImplementation(((...args: Parameters<typeof query>) => {
    queries += 1;
    return (query as (...a: unknown[]) => unknown)(...args);
  }) as typeof query);
  vi.spyOn(pool, 'connect').mockImplementation(((...args: Parameters<typeof connect>) => {
    queries += 1;
    return (connect as (...a: unknown[]) => unknown)(...args);
  }) as typeof connect);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const now = new Date('2026-11-22T10:00:00Z');
const setLevel = (productId: string, available: number): StockCommand => ({
  type: 'SetStockLevel',
  data: { productId, size: null, available, now },
});
const reserve = (productId: string, reservationId: string, quantity = 1): StockCommand => ({
  type: 'ReserveStock',
  data: { productId, size: null, reservationId, quantity, now },
});
const release = (productId: string, reservationId: string): StockCommand => ({
  type: 'ReleaseStock',
  data: { productId, size: null, reservationId, reason: 'test', now },
});

/** A writer with a fresh sold-out stream of `n` units, all held (hold ids h0..h{n-1}). */
async function soldOut(n: number, opts: { soleWriter?: boolean } = {}) {
  const writer = new StockWriter(testLog.store, opts);
  const productId = randomUUID();
  const stream = stockStreamId(productId, null);
  await writer.execute(stream, setLevel(productId, n));
  for (let i = 0; i < n; i++) await writer.execute(stream, reserve(productId, `h${i}`));
  return { writer, productId, stream };
}

const types = async (stream: string) => (await testLog.store.readStream(stream)).map((e) => e.type);

describe('StockWriter: a sold-out stream refuses in memory', () => {
  it('refuses a further hold with InsufficientStockError(0) without any query reaching Postgres', async () => {
    const { writer, productId, stream } = await soldOut(3);
    queries = 0;
    const refusal = await writer.execute(stream, reserve(productId, 'late')).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InsufficientStockError);
    expect((refusal as InsufficientStockError).available).toBe(0);
    expect(queries).toBe(0);
    // A bigger hold is refused the same way, and nothing was written for either.
    await expect(writer.execute(stream, reserve(productId, 'late2', 2))).rejects.toMatchObject({ available: 0 });
    expect(queries).toBe(0);
    expect(await types(stream)).toEqual(['StockLevelSet', 'StockReserved', 'StockReserved', 'StockReserved']);
  });

  it('asks Postgres again once an append outside the writer (an admin restock in this process) reached the stream', async () => {
    const { writer, productId, stream } = await soldOut(2);
    // The admin sets stock to 2 more units: appended by the store, not through the writer.
    await testLog.store.append(stream, 3, [
      { type: 'StockLevelSet', data: { productId, size: null, available: 2, at: now.toISOString() } },
    ]);
    queries = 0;
    const events = await writer.execute(stream, reserve(productId, 'after-restock'));
    expect(events.map((e) => e.type)).toEqual(['StockReserved']);
    expect(queries).toBeGreaterThan(0);
    expect((await testLog.store.readStream(stream)).at(-1)!.data).toMatchObject({ reservationId: 'after-restock' });
  });

  it("trusts the sold-out state only SOLD_OUT_TRUSTED_MS: another process's restock is seen after that", async () => {
    const { writer, productId, stream } = await soldOut(1);
    // Another process's store: its append does not reach this process's listeners.
    const otherProcess = new PostgresEventStore(testLog.db.pool, 'catalog');
    await otherProcess.append(stream, 2, [
      { type: 'StockLevelSet', data: { productId, size: null, available: 1, at: now.toISOString() } },
    ]);
    clock += SOLD_OUT_TRUSTED_MS - 1;
    queries = 0;
    await expect(writer.execute(stream, reserve(productId, 'within-window'))).rejects.toBeInstanceOf(
      InsufficientStockError,
    );
    expect(queries).toBe(0);
    clock += 2;
    const events = await writer.execute(stream, reserve(productId, 'after-window'));
    expect(events.map((e) => e.type)).toEqual(['StockReserved']);
    expect(queries).toBeGreaterThan(0);
  });

  it('as the sole writer (the all-in-one process), trusts the sold-out state past SOLD_OUT_TRUSTED_MS', async () => {
    const { writer, productId, stream } = await soldOut(1, { soleWriter: true });
    clock += SOLD_OUT_TRUSTED_MS * 100;
    queries = 0;
    expect(writer.soldOutFor(stream, 'late', 1)).toBe(0);
    await expect(writer.execute(stream, reserve(productId, 'late'))).rejects.toBeInstanceOf(InsufficientStockError);
    expect(queries).toBe(0);
    // Not so a writer that shares its streams with other processes: past the window it asks Postgres.
    const shared = await soldOut(1);
    clock += SOLD_OUT_TRUSTED_MS + 1;
    expect(shared.writer.soldOutFor(shared.stream, 'late', 1)).toBeNull();
  });

  it('as the sole writer, still sees at once an append made outside it in this process (an admin restock)', async () => {
    const { writer, productId, stream } = await soldOut(1, { soleWriter: true });
    await testLog.store.append(stream, 2, [
      { type: 'StockLevelSet', data: { productId, size: null, available: 1, at: now.toISOString() } },
    ]);
    expect(writer.soldOutFor(stream, 'after-restock', 1)).toBeNull();
    const events = await writer.execute(stream, reserve(productId, 'after-restock'));
    expect(events.map((e) => e.type)).toEqual(['StockReserved']);
  });

  it('soldOutFor answers null while a release is queued or being written, and for a hold already held', async () => {
    const { writer, productId, stream } = await soldOut(1, { soleWriter: true });
    expect(writer.soldOutFor(stream, 'h0', 1)).toBeNull(); // the idempotent repeat of h0
    const released = writer.execute(stream, release(productId, 'h0'));
    expect(writer.soldOutFor(stream, 'other', 1)).toBeNull();
    await released;
    expect(writer.soldOutFor(stream, 'other', 1)).toBeNull(); // the unit is back
    expect(writer.soldOutFor(stream, 'other', 2)).toBe(1);
  });

  it('honours a release queued ahead: a hold asked for after it (behind a busy batch) gets the freed unit', async () => {
    const { writer, productId, stream } = await soldOut(2);
    // A batch is in flight (a read of the stream); the release and the new hold queue behind it, in order.
    const busy = writer.available(stream);
    const released = writer.execute(stream, release(productId, 'h0'));
    const held = writer.execute(stream, reserve(productId, 'next'));
    expect(await busy).toBe(0);
    expect((await released).map((e) => e.type)).toEqual(['StockReleased']);
    expect((await held).map((e) => e.type)).toEqual(['StockReserved']);
    expect((await types(stream)).slice(-2)).toEqual(['StockReleased', 'StockReserved']);
  });

  // An idle writer moves a command straight from the queue into the batch it starts writing: the memory
  // check must still see a release issued just before the hold (it counts releases until they settle).
  it('honours a release issued just before the hold when the writer was idle (no stale refusal)', async () => {
    const { writer, productId, stream } = await soldOut(2);
    const [released, held] = await Promise.allSettled([
      writer.execute(stream, release(productId, 'h0')),
      writer.execute(stream, reserve(productId, 'next')),
    ]);
    expect(released).toMatchObject({ status: 'fulfilled', value: [{ type: 'StockReleased' }] });
    // Today: { status: 'rejected', reason: InsufficientStockError(0) }, decided from memory.
    expect(held).toMatchObject({ status: 'fulfilled', value: [{ type: 'StockReserved' }] });
  });

  it('does not refuse the idempotent repeat of a hold already held: it answers no events and writes nothing', async () => {
    const { writer, productId, stream } = await soldOut(2);
    const before = await types(stream);
    await expect(writer.execute(stream, reserve(productId, 'h1'))).resolves.toEqual([]);
    expect(await types(stream)).toEqual(before);
  });
});

describe('StockWriter: an append that lost to another process', () => {
  const at = now.toISOString();
  /** What a state holds, to compare the writer's with a fold of the whole stream (a checkpoint left open shows too). */
  const view = (s: StockState) => ({
    exists: s.exists,
    available: s.available,
    holds: Object.fromEntries(s.holds),
    journal: s.journal,
  });
  const fullFold = async (stream: string) =>
    view(
      (await testLog.store.readStream(stream)).reduce(
        (state, e) => evolveStock(state, { type: e.type, data: e.data } as StockEvent),
        initialStockState(),
      ),
    );

  it('reads on from the version it held (not from the start), decides again, and ends in the state of a full fold', async () => {
    const writer = new StockWriter(testLog.store);
    const productId = randomUUID();
    const stream = stockStreamId(productId, null);
    await writer.execute(stream, setLevel(productId, 5));
    await writer.execute(stream, reserve(productId, 'h0'));
    await writer.execute(stream, reserve(productId, 'h1'));
    // Another process (its own store: its appends reach no listener here) holds 2 units and releases h0.
    const otherProcess = new PostgresEventStore(testLog.db.pool, 'catalog');
    await otherProcess.append(stream, 3, [
      { type: 'StockReserved', data: { productId, size: null, reservationId: 'x', quantity: 2, at } },
      { type: 'StockReleased', data: { productId, size: null, reservationId: 'h0', quantity: 1, reason: 'test', at } },
    ]);
    const reads = vi.spyOn(testLog.store, 'readStream');

    // Within the trust window the writer decides on its state at version 3: the append loses, it reads 4 on.
    expect((await writer.execute(stream, reserve(productId, 'mine'))).map((e) => e.type)).toEqual(['StockReserved']);
    expect(reads.mock.calls).toEqual([[stream, 4]]);
    expect(await writer.read(stream, view)).toEqual(await fullFold(stream));
    expect(await writer.available(stream)).toBe(1);

    // Again with a batch that changes a hold it already had (h1 released): the hold is as before the lost batch.
    await otherProcess.append(stream, 6, [
      { type: 'StockCommitted', data: { productId, size: null, reservationId: 'x', quantity: 2, at } },
    ]);
    reads.mockClear();
    expect((await writer.execute(stream, release(productId, 'h1'))).map((e) => e.type)).toEqual(['StockReleased']);
    expect(reads.mock.calls).toEqual([[stream, 7]]);
    expect(await writer.read(stream, view)).toEqual(await fullFold(stream));
    expect(await types(stream)).toEqual([
      'StockLevelSet',
      'StockReserved',
      'StockReserved',
      'StockReserved',
      'StockReleased',
      'StockReserved',
      'StockCommitted',
      'StockReleased',
    ]);
  });
});
