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
 * How long a sold-out state is trusted without asking Postgres: appends by this process outside the writer
 * (a product edit setting stock) make it stale at once; another process's append is seen within this time.
 */
export const SOLD_OUT_TRUSTED_MS = 500;

/**
 * The single writer of each stock stream in this process (a StreamWriter with group commit), so a hot
 * product takes thousands of reservations a second without ever deciding on stale stock; and a sold-out
 * stream refuses a new hold in memory.
 */
export class StockWriter extends StreamWriter<StockState, StockCommand, StockEvent> {
  constructor(store: PostgresEventStore, opts: { maxBatch?: number; maxAttempts?: number } = {}) {
    super(
      store,
      {
        initial: initialStockState,
        evolve: evolveStock,
        decide: decideStock,
        checkpoint: checkpointStock,
        actor: 'inventory',
        busyMessage: 'Stock is very busy, please try again',
        mayFree: (c) => c.type === 'ReleaseStock' || c.type === 'SetStockLevel',
      },
      { trustStateMs: SOLD_OUT_TRUSTED_MS, ...opts },
    );
  }

  /** Decides and records one command; resolves with its events (none for an idempotent repeat). */
  async execute(streamId: string, command: StockCommand): Promise<StockEvent[]> {
    const refusal = this.refuseFromMemory(streamId, command);
    if (refusal) throw refusal;
    return (await this.run(streamId, command)).events;
  }

  /** Units on sale on the stream now (after catching up), read in turn with the stream's commands. */
  available(streamId: string): Promise<number> {
    return this.read(streamId, (s) => s.available);
  }

  /**
   * A sold-out stream refuses a new hold in memory, without a trip to Postgres: when no release or stock
   * level is queued or being written (it could free units) and the state was read or written within
   * SOLD_OUT_TRUSTED_MS. A stale answer can only refuse, never oversell: a hold is always decided on the
   * stream in turn.
   */
  private refuseFromMemory(streamId: string, command: StockCommand): InsufficientStockError | null {
    if (command.type !== 'ReserveStock') return null;
    const s = this.slots.get(streamId);
    if (!s || !s.loaded || s.freeing > 0 || s.state.holds.has(command.data.reservationId)) return null;
    if (performance.now() - s.freshAt > SOLD_OUT_TRUSTED_MS) return null;
    if (s.state.available >= command.data.quantity) return null;
    return new InsufficientStockError(Math.max(0, s.state.available));
  }
}
