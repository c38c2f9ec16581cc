import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { StreamVersionConflictError } from '@shop/shared/eventstore/postgres-event-store';
import { UnavailableError } from '@shop/shared/errors/errors';
import {
  decideStock,
  evolveStock,
  InsufficientStockError,
  initialStockState,
  type StockCommand,
  type StockState,
} from '../stock/decider.ts';
import type { StockEvent } from '../stock/events.ts';

/** A read of the units on sale, answered in queue order so it never races a batch's catch-up or append. */
type ReadAvailable = { type: 'ReadAvailable' };

interface Pending {
  command: StockCommand | ReadAvailable;
  resolve: (outcome: StockEvent[] | number) => void;
  reject: (err: unknown) => void;
}

interface StreamSlot {
  state: StockState;
  version: number;
  loaded: boolean;
  queue: Pending[];
  draining: boolean;
  /** When (performance.now()) the state was last known to match the log; 0 = not since another append. */
  freshAt: number;
  /** When the last catch-up read the log (the state's age after this writer's own append). */
  readAt: number;
  /** Commands that may put units back (releases, stock levels) queued or in the batch being written. */
  unitsMayReturn: number;
}

/**
 * How long a sold-out state is trusted without asking Postgres: appends by this process outside the writer
 * (a product edit setting stock) make it stale at once; another process's append is seen within this time.
 */
export const SOLD_OUT_TRUSTED_MS = 500;

/**
 * The single writer of each stock stream in this process, with group commit: commands for one stream
 * queue up while a batch is being written, and the next batch decides all of them against the
 * stream's state in order and appends their events in one transaction. Other processes writing the same
 * stream are caught by the optimistic version check; the batch then reloads and decides again. So a hot
 * product takes thousands of reservations a second without ever deciding on stale stock.
 */
export class StockWriter {
  private readonly slots = new Map<string, StreamSlot>();

  constructor(
    private readonly store: PostgresEventStore,
    private readonly opts: { maxBatch?: number; maxAttempts?: number } = {},
  ) {
    // A stock event this writer did not write (a product edit's stock level): its stream is stale now.
    store.onAppended((events) => {
      for (const e of events) {
        const slot = this.slots.get(e.streamId);
        if (slot && e.streamVersion > slot.version) slot.freshAt = 0;
      }
    });
  }

  /** Decides and records one command; resolves with its events (none for an idempotent repeat). */
  execute(streamId: string, command: StockCommand): Promise<StockEvent[]> {
    const refusal = this.refuseFromMemory(streamId, command);
    if (refusal) return Promise.reject(refusal);
    return this.enqueue(streamId, command) as Promise<StockEvent[]>;
  }

  /**
   * A sold-out stream refuses a new hold in memory, without a trip to Postgres: when no release or stock
   * level is queued or being written (it could free units) and the state was read or written within
   * SOLD_OUT_TRUSTED_MS.
   * A stale answer can only refuse, never oversell: a hold is always decided on the stream in turn.
   */
  private refuseFromMemory(streamId: string, command: StockCommand): InsufficientStockError | null {
    if (command.type !== 'ReserveStock') return null;
    const s = this.slots.get(streamId);
    if (!s || !s.loaded || s.unitsMayReturn > 0 || s.state.holds.has(command.data.reservationId)) return null;
    if (performance.now() - s.freshAt > SOLD_OUT_TRUSTED_MS) return null;
    if (s.state.available >= command.data.quantity) return null;
    return new InsufficientStockError(Math.max(0, s.state.available));
  }

  /** Units on sale on the stream now (after catching up), read in turn with the stream's commands. */
  available(streamId: string): Promise<number> {
    return this.enqueue(streamId, { type: 'ReadAvailable' }) as Promise<number>;
  }

  private enqueue(streamId: string, command: StockCommand | ReadAvailable): Promise<StockEvent[] | number> {
    let slot = this.slots.get(streamId);
    if (!slot) {
      slot = {
        state: initialStockState(),
        version: 0,
        loaded: false,
        queue: [],
        draining: false,
        freshAt: 0,
        readAt: 0,
        unitsMayReturn: 0,
      };
      this.slots.set(streamId, slot);
    }
    const s = slot;
    const mayReturnUnits = command.type === 'ReleaseStock' || command.type === 'SetStockLevel';
    if (mayReturnUnits) s.unitsMayReturn += 1;
    return new Promise<StockEvent[] | number>((resolve, reject) => {
      const settled =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          if (mayReturnUnits) s.unitsMayReturn -= 1;
          f(v);
        };
      s.queue.push({ command, resolve: settled(resolve), reject: settled(reject) });
      if (!s.draining) void this.drain(streamId, s);
    });
  }

  private async drain(streamId: string, s: StreamSlot): Promise<void> {
    s.draining = true;
    try {
      while (s.queue.length > 0) {
        const batch = s.queue.splice(0, this.opts.maxBatch ?? 500);
        await this.runBatch(streamId, s, batch);
      }
    } finally {
      s.draining = false;
    }
  }

  private async catchUp(streamId: string, s: StreamSlot): Promise<void> {
    if (!s.loaded) {
      s.state = initialStockState();
      s.version = 0;
    }
    const readAt = performance.now();
    const events = await this.store.readStream(streamId, s.version + 1);
    for (const e of events) {
      evolveStock(s.state, { type: e.type, data: e.data } as StockEvent);
      s.version = e.streamVersion;
    }
    s.loaded = true;
    s.readAt = readAt;
    s.freshAt = readAt;
  }

  private async runBatch(streamId: string, s: StreamSlot, batch: Pending[]): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? 20;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.catchUp(streamId, s);
      } catch (err) {
        s.loaded = false;
        for (const p of batch) p.reject(err);
        return;
      }
      // Decide in arrival order on the live state; if the append fails the state is reloaded.
      const outcomes: Array<{ value: StockEvent[] | number } | { error: unknown }> = [];
      const all: StockEvent[] = [];
      for (const p of batch) {
        if (p.command.type === 'ReadAvailable') {
          outcomes.push({ value: s.state.available });
          continue;
        }
        try {
          const events = decideStock(p.command, s.state);
          for (const e of events) evolveStock(s.state, e);
          all.push(...events);
          outcomes.push({ value: events });
        } catch (error) {
          outcomes.push({ error });
        }
      }
      if (all.length > 0) {
        try {
          const r = await this.store.append(streamId, s.version, all, { metadata: { actor: 'inventory' } });
          s.version = r.nextExpectedVersion;
          // Its own append (which the listener saw as new) leaves the state as fresh as the read before it.
          s.freshAt = s.readAt;
        } catch (err) {
          s.loaded = false;
          if (err instanceof StreamVersionConflictError && attempt < maxAttempts) continue;
          const failure =
            err instanceof StreamVersionConflictError
              ? new UnavailableError('Stock is very busy, please try again')
              : err;
          for (const p of batch) p.reject(failure);
          return;
        }
      }
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        if ('error' in o) p.reject(o.error);
        else p.resolve(o.value);
      });
      return;
    }
  }
}
