import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { StreamWriter } from '@shop/shared/eventstore/stream-writer';
import {
  checkpointStock,
  decideStock,
  evolveStock,
  InsufficientStockError,
  initialStockState,
  type StockCommand,
  type StockState,
} from '../stock/decider.ts';
import type { StockEvent } from '../stock/events.ts';

/**
 * How long a sold-out state is trusted without asking Postgres when other processes may append to stock
 * streams (distributed mode): appends by this process outside the writer (a product edit setting stock) make it
 * stale at once; another process's append is seen within this time. A sole writer (the all-in-one process)
 * trusts it until such an append.
 */
export const SOLD_OUT_TRUSTED_MS = 500;

/** Commands that may put units back on sale. */
const mayFree = (c: StockCommand) => c.type === 'ReleaseStock' || c.type === 'SetStockLevel';

/** Told of the writer's commands as they come (the sold-out beacon, sold-out-beacon.ts). */
export interface StockWatcher {
  /** A command that may put units back on sale is about to be decided on the stream (before it is written). */
  freeing(streamId: string, productId: string): void;
  /** A hold was decided on the stream (taken or refused). */
  reserved(streamId: string, productId: string, size: string | null): void;
}

/**
 * The single writer of each stock stream in this process (a StreamWriter with group commit), so a hot
 * product takes thousands of reservations a second without ever deciding on stale stock; and a sold-out
 * stream refuses a new hold in memory.
 */
export class StockWriter extends StreamWriter<StockState, StockCommand, StockEvent> {
  /** No other process appends to these stock streams: a sold-out state holds until an append says otherwise. */
  private readonly sole: boolean;
  private readonly watchers: StockWatcher[] = [];

  constructor(
    store: PostgresEventStore,
    opts: {
      maxBatch?: number;
      maxAttempts?: number;
      /**
       * Only this process appends stock events (the all-in-one process): every append to a stock stream is
       * this writer's or is seen by it (the store's onAppended makes the slot stale), so a sold-out state is
       * trusted with no staleness window.
       */
      soleWriter?: boolean;
    } = {},
  ) {
    const { soleWriter = false, ...writerOpts } = opts;
    super(
      store,
      {
        initial: initialStockState,
        evolve: evolveStock,
        decide: decideStock,
        checkpoint: checkpointStock,
        actor: 'inventory',
        busyMessage: 'Stock is very busy, please try again',
        mayFree,
      },
      { trustStateMs: SOLD_OUT_TRUSTED_MS, ...writerOpts },
    );
    this.sole = soleWriter;
  }

  /** Decides and records one command; resolves with its events (none for an idempotent repeat). */
  async execute(streamId: string, command: StockCommand): Promise<StockEvent[]> {
    if (mayFree(command)) for (const w of this.watchers) w.freeing(streamId, command.data.productId);
    try {
      const refusal = this.refuseFromMemory(streamId, command);
      if (refusal) throw refusal;
      return (await this.run(streamId, command)).events;
    } finally {
      if (command.type === 'ReserveStock')
        for (const w of this.watchers) w.reserved(streamId, command.data.productId, command.data.size);
    }
  }

  /** Tells `watcher` of every command from now on. */
  watch(watcher: StockWatcher): void {
    this.watchers.push(watcher);
  }

  /** Units on sale on the stream now (after catching up), read in turn with the stream's commands. */
  available(streamId: string): Promise<number> {
    return this.read(streamId, (s) => s.available);
  }

  /**
   * The units on sale when the stream's state in memory certainly refuses a new hold of `quantity` under
   * `holdId` now, else null (not loaded, a release or stock level queued or being written, the hold already
   * there, or a state that may be stale). Synchronous: no trip to Postgres, no turn in the stream's queue.
   * The state is trusted while nothing this process saw has changed the stream since it was last read or
   * written, and (unless this is the sole writer) for at most SOLD_OUT_TRUSTED_MS. A stale answer can only
   * refuse, never oversell: a hold is always decided on the stream in turn.
   */
  soldOutFor(streamId: string, holdId: string, quantity: number): number | null {
    const s = this.slots.get(streamId);
    if (!s || !s.loaded || s.freeing > 0 || s.state.holds.has(holdId)) return null;
    // freshAt 0: an append this writer did not make (or a lost append) since; always read the stream then.
    if (s.freshAt === 0 || (!this.sole && performance.now() - s.freshAt > SOLD_OUT_TRUSTED_MS)) return null;
    if (s.state.available >= quantity) return null;
    return Math.max(0, s.state.available);
  }

  /** A sold-out stream refuses a new hold in memory, without a trip to Postgres (see soldOutFor). */
  private refuseFromMemory(streamId: string, command: StockCommand): InsufficientStockError | null {
    if (command.type !== 'ReserveStock') return null;
    const available = this.soldOutFor(streamId, command.data.reservationId, command.data.quantity);
    return available === null ? null : new InsufficientStockError(available);
  }
}
