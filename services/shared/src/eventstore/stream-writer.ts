import { UnavailableError } from '../errors/errors.ts';
import { StreamVersionConflictError, type PostgresEventStore } from './postgres-event-store.ts';
import type { DomainEvent } from './types.ts';

/** What a stream writer decides with: the aggregate's pure decider (ARCHITECTURE.md). */
export interface WriterModel<S, C, E extends DomainEvent> {
  initial(): S;
  /** May mutate and return `state` (a hot stream's state is not copied per event) or return a new one. */
  evolve(state: S, event: E): S;
  decide(command: C, state: S): E[];
  /** The metadata actor of the writer's appends. */
  actor: string;
  /** When this many appends in a row lose to another process's append, the caller is told to try again. */
  busyMessage: string;
  /** Commands that may free capacity (a release): counted until settled, see `Slot.freeing`. */
  mayFree?(command: C): boolean;
  /**
   * Called before a batch is decided: the way back to `state` as it is now, taken when the batch's append
   * fails (lost to another process's append), so the writer reads on from the version it holds instead of
   * folding the stream from its start. An evolve that returns new states keeps `state` as it is
   * (`(state) => ({ rollback: () => state })`); a mutating evolve records what it changes from here on.
   * `forget` (optional) ends that record once the batch is written or appended nothing.
   */
  checkpoint(state: S): { rollback(): S; forget?(): void };
}

type Job<S, C, E> =
  | { kind: 'command'; command: C; resolve: (r: { events: E[]; state: S }) => void; reject: (e: unknown) => void }
  | { kind: 'read'; read: (state: S) => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void };

/** One stream's state in this process. */
export interface Slot<S, C, E> {
  state: S;
  version: number;
  loaded: boolean;
  queue: Array<Job<S, C, E>>;
  draining: boolean;
  /** When (performance.now()) the state was last known to match the log; 0 = not since another append. */
  freshAt: number;
  /** When the last catch-up read the log (the state's age after this writer's own append). */
  readAt: number;
  /** Commands that may free capacity (model.mayFree) queued or in the batch being written. */
  freeing: number;
}

/**
 * The single writer of each stream of one aggregate in this process, with group commit: commands for one
 * stream queue up while a batch is being written, and the next batch decides all of them against the
 * stream's state in order and appends their events in one transaction. Other processes writing the same
 * stream are caught by the optimistic version check; the state then goes back to the version the writer
 * held (model.checkpoint), the events after it are read, and the batch is decided again. So a hot
 * stream takes thousands of commands a second without folding its history per command or deciding on
 * stale state. Used for stock (the catalog's StockWriter) and coupon uses.
 */
export class StreamWriter<S, C, E extends DomainEvent> {
  protected readonly slots = new Map<string, Slot<S, C, E>>();

  constructor(
    private readonly store: PostgresEventStore,
    private readonly model: WriterModel<S, C, E>,
    private readonly opts: {
      maxBatch?: number;
      maxAttempts?: number;
      /**
       * How long the state in memory is trusted without reading the stream first (default 500 ms): an
       * append is version-checked anyway; only a batch that appends nothing (refusals, reads) can answer
       * from a state up to this old when another process wrote the stream. An append by this process outside
       * the writer makes the state stale at once.
       */
      trustStateMs?: number;
    } = {},
  ) {
    // An event this writer did not write (appended elsewhere in this process): its stream is stale now.
    store.onAppended((events) => {
      for (const e of events) {
        const slot = this.slots.get(e.streamId);
        if (slot && e.streamVersion > slot.version) slot.freshAt = 0;
      }
    });
  }

  /**
   * Decides and records one command; resolves with its events (none for an idempotent repeat) and the
   * state right after it (read it at once: with a mutating evolve the state moves on with the next command).
   */
  run(streamId: string, command: C): Promise<{ events: E[]; state: S }> {
    const s = this.slot(streamId);
    const freeing = this.model.mayFree?.(command) ?? false;
    if (freeing) s.freeing += 1;
    const done =
      <T>(f: (v: T) => void) =>
      (v: T) => {
        if (freeing) s.freeing -= 1;
        f(v);
      };
    return new Promise((resolve, reject) => {
      s.queue.push({ kind: 'command', command, resolve: done(resolve), reject: done(reject) });
      if (!s.draining) void this.drain(streamId, s);
    });
  }

  /** Reads the stream's state now (after catching up), in turn with its commands. */
  read<T>(streamId: string, read: (state: S) => T): Promise<T> {
    const s = this.slot(streamId);
    return new Promise<T>((resolve, reject) => {
      s.queue.push({ kind: 'read', read, resolve: resolve as (v: unknown) => void, reject });
      if (!s.draining) void this.drain(streamId, s);
    });
  }

  protected slot(streamId: string): Slot<S, C, E> {
    let slot = this.slots.get(streamId);
    if (!slot) {
      slot = {
        state: this.model.initial(),
        version: 0,
        loaded: false,
        queue: [],
        draining: false,
        freshAt: 0,
        readAt: 0,
        freeing: 0,
      };
      this.slots.set(streamId, slot);
    }
    return slot;
  }

  private async drain(streamId: string, s: Slot<S, C, E>): Promise<void> {
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

  private async catchUp(streamId: string, s: Slot<S, C, E>): Promise<void> {
    if (!s.loaded) {
      s.state = this.model.initial();
      s.version = 0;
    }
    const readAt = performance.now();
    const events = await this.store.readStream(streamId, s.version + 1);
    for (const e of events) {
      s.state = this.model.evolve(s.state, { type: e.type, data: e.data } as E);
      s.version = e.streamVersion;
    }
    s.loaded = true;
    s.readAt = readAt;
    s.freshAt = readAt;
  }

  private async runBatch(streamId: string, s: Slot<S, C, E>, batch: Array<Job<S, C, E>>): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? 20;
    for (let attempt = 1; ; attempt++) {
      try {
        if (!s.loaded || performance.now() - s.freshAt > (this.opts.trustStateMs ?? 500))
          await this.catchUp(streamId, s);
      } catch (err) {
        s.loaded = false;
        for (const p of batch) p.reject(err);
        return;
      }
      // Decide in arrival order on the live state; if the append fails the state goes back to s.version.
      const undo = batch.some((p) => p.kind === 'command') ? this.model.checkpoint(s.state) : undefined;
      const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
      const all: E[] = [];
      for (const p of batch) {
        if (p.kind === 'read') {
          outcomes.push({ value: p.read(s.state) });
          continue;
        }
        try {
          const events = this.model.decide(p.command, s.state);
          for (const e of events) s.state = this.model.evolve(s.state, e);
          all.push(...events);
          outcomes.push({ value: { events, state: s.state } });
        } catch (error) {
          outcomes.push({ error });
        }
      }
      if (all.length > 0) {
        try {
          const r = await this.store.append(streamId, s.version, all, { metadata: { actor: this.model.actor } });
          s.version = r.nextExpectedVersion;
          // Its own append (which the listener saw as new) leaves the state as fresh as the read before it.
          s.freshAt = s.readAt;
        } catch (err) {
          // Back to the state at s.version (what the log certainly holds); the next catch-up reads on from there.
          s.state = undo!.rollback();
          s.freshAt = 0;
          if (err instanceof StreamVersionConflictError && attempt < maxAttempts) continue;
          const failure =
            err instanceof StreamVersionConflictError ? new UnavailableError(this.model.busyMessage) : err;
          for (const p of batch) p.reject(failure);
          return;
        }
      }
      undo?.forget?.();
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        if ('error' in o) p.reject(o.error);
        else (p.resolve as (v: unknown) => void)(o.value);
      });
      return;
    }
  }
}
