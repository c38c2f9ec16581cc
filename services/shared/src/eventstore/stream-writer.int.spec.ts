import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testEventStore } from '@shop/test-support/test-event-store';
import { eventLoopTurns as turns, waitUntil } from '@shop/test-support/wait-until';
import { ConflictError } from '../errors/errors.ts';
import { PostgresEventStore } from './postgres-event-store.ts';
import { StreamWriter, type WriterModel } from './stream-writer.ts';

const testLog = testEventStore('catalog');

/** A small capacity: `Take` holds one of `left` units once per id; another process may take units too. */
type Counter = { left: number; taken: ReadonlySet<string> };
type Take = { id: string };
type CounterEvent = { type: 'Stocked'; data: { units: number } } | { type: 'Taken'; data: { id: string } };

/** The model, noting each decision: the command's id and the units it saw left. */
const modelNoting = (decisions: string[]): WriterModel<Counter, Take, CounterEvent> => ({
  initial: () => ({ left: 0, taken: new Set() }),
  evolve: (s, e) =>
    e.type === 'Stocked'
      ? { ...s, left: s.left + e.data.units }
      : { left: s.left - 1, taken: new Set([...s.taken, e.data.id]) },
  decide: (c, s) => {
    decisions.push(`${c.id}@${s.left}`);
    if (s.taken.has(c.id)) return [];
    if (s.left < 1) throw new ConflictError('sold out');
    return [{ type: 'Taken', data: { id: c.id } }];
  },
  checkpoint: (state) => ({ rollback: () => state }),
  actor: 'test',
  busyMessage: 'busy',
});

/** The store's appends, each held until the test lets it go (its events and the version it is made at). */
function gatedAppends(store: PostgresEventStore) {
  const append = store.append.bind(store);
  const held: Array<{ expected: number; types: string[]; go: () => void }> = [];
  store.append = (streamId, expected, events, options) =>
    new Promise<void>((go) => held.push({ expected: expected as number, types: events.map((e) => e.type), go })).then(
      () => append(streamId, expected, events, options),
    );
  return held;
}

const logOf = async (stream: string) =>
  (await testLog.store.readStream(stream)).map((e) => `${e.streamVersion}:${e.type}:${JSON.stringify(e.data)}`);

describe('StreamWriter: one batch in flight, the next decided behind it', () => {
  it('decides the commands that arrive during an append on the state it makes, and appends them once it has committed, at its end version', async () => {
    const store = new PostgresEventStore(testLog.db.pool, 'catalog');
    const stream = `counter-${randomUUID()}`;
    await store.append(stream, 0, [{ type: 'Stocked', data: { units: 3 } }]);
    const decisions: string[] = [];
    const writer = new StreamWriter(store, modelNoting(decisions));
    const held = gatedAppends(store);
    const answered: string[] = [];
    const take = (id: string) =>
      writer.run(stream, { id }).then(
        (r) => void answered.push(`${id}:${r.events.length}`),
        (e: unknown) => void answered.push(`${id}:${(e as Error).message}`),
      );

    const a = take('a');
    await waitUntil(() => held.length > 0, 'an append to be held');
    expect(held.map((h) => [h.expected, h.types])).toEqual([[1, ['Taken']]]);
    // While a's append is in flight: b and c are decided (c twice: the repeat holds nothing more), d finds none left.
    const rest = [take('b'), take('c'), take('c'), take('d')];
    await turns();
    // Decided on the state a's append makes (2 left), before it commits.
    expect(decisions).toEqual(['a@3', 'b@2', 'c@1', 'c@0', 'd@0']);
    expect(held).toHaveLength(1); // nothing more is sent before a's append has committed
    expect(answered).toEqual([]); // and nothing decided behind it is answered
    held[0]!.go();
    await a;
    await waitUntil(() => held.length > 1, 'a second append to be held');
    // The next batch goes at the version a's append ended at, with the events decided behind it.
    expect(held.slice(1).map((h) => [h.expected, h.types])).toEqual([[2, ['Taken', 'Taken']]]);
    expect(answered).toEqual(['a:1']);
    held[1]!.go();
    await Promise.all(rest);
    expect(answered).toEqual(['a:1', 'b:1', 'c:1', 'c:0', 'd:sold out']);
    expect(await logOf(stream)).toEqual([
      '1:Stocked:{"units":3}',
      '2:Taken:{"id":"a"}',
      '3:Taken:{"id":"b"}',
      '4:Taken:{"id":"c"}',
    ]);
  });

  it('when the append in flight loses to another process, decides the batch behind it again on the log as it is', async () => {
    const store = new PostgresEventStore(testLog.db.pool, 'catalog');
    const stream = `counter-${randomUUID()}`;
    await store.append(stream, 0, [{ type: 'Stocked', data: { units: 3 } }]);
    const decisions: string[] = [];
    const writer = new StreamWriter(store, modelNoting(decisions));
    const held = gatedAppends(store);
    const answered: string[] = [];
    const take = (id: string) =>
      writer.run(stream, { id }).then(
        (r) => void answered.push(`${id}:${r.events.length}`),
        (e: unknown) => void answered.push(`${id}:${(e as Error).message}`),
      );

    const all = [take('a')];
    await waitUntil(() => held.length > 0, 'an append to be held');
    all.push(take('b'), take('c'), take('d')); // decided behind a: b and c take the last two units, d is refused
    await turns();
    expect(decisions).toEqual(['a@3', 'b@2', 'c@1', 'd@0']);
    // Another process (its own store: no listener here hears it) takes two units first.
    const otherProcess = new PostgresEventStore(testLog.db.pool, 'catalog');
    await otherProcess.append(stream, 1, [
      { type: 'Taken', data: { id: 'x' } },
      { type: 'Taken', data: { id: 'y' } },
    ]);
    held[0]!.go(); // a's append loses the version check
    // a, b, c and d are decided again on the log read on: one unit left, for a.
    for (let i = 1; answered.length < 4; i++) {
      await waitUntil(() => held.length > i || answered.length === 4, 'the next append or every answer');
      held[i]?.go();
    }
    await Promise.all(all);
    expect(answered).toEqual(['a:1', 'b:sold out', 'c:sold out', 'd:sold out']);
    // All four decided again, in order, on the log read on (1 left): none of the first decisions stood.
    expect(decisions.slice(4)).toEqual(['a@1', 'b@0', 'c@0', 'd@0']);
    expect(await logOf(stream)).toEqual([
      '1:Stocked:{"units":3}',
      '2:Taken:{"id":"x"}',
      '3:Taken:{"id":"y"}',
      '4:Taken:{"id":"a"}',
    ]);
    expect(await writer.read(stream, (s) => s.left)).toBe(0);
  });
});
