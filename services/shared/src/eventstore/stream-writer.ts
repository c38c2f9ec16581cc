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
   * Checkpoints nest: the next batch's is taken while the batch in flight's is open, and when an append fails
   * they are rolled back newest first, each to the state it was taken at; forgetting an older one leaves a
   * newer one's record as it is.
   */
  checkpoint(state: S): { rollback(): S; forget?(): void };
}

type Job<S, C, E> = (
  | { kind: 'command'; command: C; resolve: (r: { events: E[]; state: S }) => void; reject: (e: unknown) => void }
  | { kind: 'read'; read: (state: S) => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }
) & {
  /** Appends lost to another process's append with this job in the batch (see opts.maxAttempts). */
  lost?: number;
};

/**
 * A batch decided on the state that assumes every batch before it commits: its outcomes are answered, and its
 * events appended, only once they all have.
 */
interface Batch<S, C, E> {
  jobs: Array<Job<S, C, E>>;
  outcomes: Array<{ value: unknown } | { error: unknown }>;
  events: E[];
  /** The way back to the state before this batch (taken before its first command); undone newest first. */
  undo?: { rollback(): S; forget?(): void };
  /** Its append was sent (it is the head of the pipeline). */
  sent: boolean;
}

/** One stream's state in this process. */
export interface Slot<S, C, E> {
  /** The state as decided: the committed version's plus every batch in the pipeline. */
  state: S;
  /** The version the log certainly holds (the last append that committed, or the last read). */
  version: number;
  loaded: boolean;
  /** Commands and reads waiting for a batch (during a catch-up read, or behind a full pipeline). */
  queue: Array<Job<S, C, E>>;
  /**
   * The batches decided and not yet settled, oldest first: [0] is being appended; [1], decided on the state
   * that assumes [0] commits, takes the commands that arrive meanwhile and is appended when [0] has committed.
   */
  pipeline: Array<Batch<S, C, E>>;
  /** The version `state` is at: `version` plus the events of the pipeline's batches. */
  decidedVersion: number;
  catchingUp: boolean;
  /** A catch-up read ended and no batch was decided since: the next head is decided on it, however old. */
  justRead: boolean;
  pumping: boolean;
  /** When (performance.now()) the state was last known to match the log; 0 = not since another append. */
  freshAt: number;
  /** Appends by this process outside the writer seen on the stream (each makes the state stale). */
  foreign: number;
  /** Commands that may free capacity (model.mayFree) queued or in the batch being written. */
  freeing: number;
}

/**
 * The single writer of each stream of one aggregate in this process, with group commit and one batch in
 * flight: while a batch's append commits, the commands that arrive are decided, in order, on the state that
 * assumes it commits (the next batch), and that batch is appended, at the version the first one ends at, as
 * soon as it has. If an append fails, every batch decided after it goes back too (model.checkpoint, newest
 * first) and is decided again on the state read on from the version the log certainly holds: no outcome is
 * answered, and no event appended, that was decided on a state that did not commit. Other processes writing
 * the same stream are caught by the optimistic version check the same way. So a hot stream takes thousands
 * of commands a second without folding its history per command or deciding on stale state, and Postgres
 * appends one batch while this process decides the next. Used for stock (the catalog's StockWriter) and coupon
 * uses.
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
    // An event this writer did not write (appended elsewhere in this process): its stream is stale now. Events
    // up to the version decided are this writer's batches, or another's that makes the batch in flight fail.
    store.onAppended((events) => {
      for (const e of events) {
        const slot = this.slots.get(e.streamId);
        if (slot && e.streamVersion > slot.decidedVersion) {
          slot.freshAt = 0;
          slot.foreign += 1;
        }
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
      this.pump(streamId, s);
    });
  }

  /** Reads the stream's state now (after catching up), in turn with its commands. */
  read<T>(streamId: string, read: (state: S) => T): Promise<T> {
    const s = this.slot(streamId);
    return new Promise<T>((resolve, reject) => {
      s.queue.push({ kind: 'read', read, resolve: resolve as (v: unknown) => void, reject });
      this.pump(streamId, s);
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
        pipeline: [],
        decidedVersion: 0,
        catchingUp: false,
        justRead: false,
        pumping: false,
        freshAt: 0,
        foreign: 0,
        freeing: 0,
      };
      this.slots.set(streamId, slot);
    }
    return slot;
  }

  /**
   * Moves the stream on as far as it can now: answers a head batch that appends nothing, sends the head's
   * append, decides queued jobs into the batch after the one in flight (or a new head, after a catch-up read
   * when the state is not trusted). Called whenever a job arrives, an append settles or a read ends.
   */
  private pump(streamId: string, s: Slot<S, C, E>): void {
    if (s.pumping) return; // a read job's function ran a command: the pump running picks it up
    s.pumping = true;
    try {
      const maxBatch = this.opts.maxBatch ?? 500;
      for (;;) {
        const head = s.pipeline[0];
        if (head && !head.sent) {
          if (head.events.length > 0) this.send(streamId, s, head);
          else {
            // Nothing to append, and every batch before it committed: its outcomes stand.
            s.pipeline.shift();
            head.undo?.forget?.();
            this.answer(head);
          }
          continue;
        }
        if (s.queue.length === 0 || s.catchingUp) return;
        let open = s.pipeline.length > 0 ? s.pipeline[s.pipeline.length - 1]! : undefined;
        if (!open || open.sent || open.jobs.length >= maxBatch) {
          if (s.pipeline.length >= 2) return; // one batch in flight and one full behind it
          // A new head is decided on a state read just now, or trusted (the catch-up read's own age does not count).
          if (
            s.pipeline.length === 0 &&
            !s.justRead &&
            (!s.loaded || s.freshAt === 0 || performance.now() - s.freshAt > (this.opts.trustStateMs ?? 500))
          ) {
            void this.catchUp(streamId, s);
            return;
          }
          s.justRead = false;
          open = { jobs: [], outcomes: [], events: [], sent: false };
          s.pipeline.push(open);
        }
        this.decide(s, open, s.queue.splice(0, maxBatch - open.jobs.length));
      }
    } finally {
      s.pumping = false;
    }
  }

  /** Decides jobs, in order, on the live state into `batch`. */
  private decide(s: Slot<S, C, E>, batch: Batch<S, C, E>, jobs: Array<Job<S, C, E>>): void {
    for (const p of jobs) {
      batch.jobs.push(p);
      if (p.kind === 'read') {
        try {
          batch.outcomes.push({ value: p.read(s.state) });
        } catch (error) {
          batch.outcomes.push({ error });
        }
        continue;
      }
      batch.undo ??= this.model.checkpoint(s.state);
      try {
        const events = this.model.decide(p.command, s.state);
        for (const e of events) s.state = this.model.evolve(s.state, e);
        batch.events.push(...events);
        s.decidedVersion += events.length;
        batch.outcomes.push({ value: { events, state: s.state } });
      } catch (error) {
        batch.outcomes.push({ error });
      }
    }
  }

  /** Appends the head batch at the version the log holds (every batch before it has committed). */
  private send(streamId: string, s: Slot<S, C, E>, batch: Batch<S, C, E>): void {
    batch.sent = true;
    const sentAt = performance.now();
    const foreign = s.foreign;
    this.store.append(streamId, s.version, batch.events, { metadata: { actor: this.model.actor } }).then(
      (r) => {
        s.pipeline.shift();
        s.version = r.nextExpectedVersion;
        // The version check passed: the log held nothing else when it ran, unless an append by this process
        // outside the writer was seen since (it is later).
        if (s.foreign === foreign) s.freshAt = Math.max(s.freshAt, sentAt);
        batch.undo?.forget?.();
        // Answered in order (a resolve only queues its caller), then the next batch's append goes out at once.
        this.answer(batch);
        this.pump(streamId, s);
      },
      (err: unknown) => {
        // Back to the state at s.version (what the log certainly holds): the batches decided after this one
        // were decided on its events, so they go back first and are decided again after the catch-up read.
        const undone = s.pipeline.splice(0); // [this batch, the one decided on it (if any)]
        for (let i = undone.length - 1; i >= 0; i--) if (undone[i]!.undo) s.state = undone[i]!.undo!.rollback();
        s.decidedVersion = s.version;
        s.freshAt = 0;
        const conflict = err instanceof StreamVersionConflictError;
        const maxAttempts = this.opts.maxAttempts ?? 20;
        const again: Array<Job<S, C, E>> = [];
        for (const p of batch.jobs) {
          if (conflict) p.lost = (p.lost ?? 0) + 1;
          if (conflict && p.lost! < maxAttempts) again.push(p);
          else p.reject(conflict ? new UnavailableError(this.model.busyMessage) : err);
        }
        for (const b of undone.slice(1)) again.push(...b.jobs);
        s.queue.unshift(...again);
        this.pump(streamId, s);
      },
    );
  }

  private answer(batch: Batch<S, C, E>): void {
    batch.jobs.forEach((p, i) => {
      const o = batch.outcomes[i]!;
      if ('error' in o) p.reject(o.error);
      else (p.resolve as (v: unknown) => void)(o.value);
    });
  }

  /** Reads the stream on from the version held (from the start when not loaded), then moves on. */
  private async catchUp(streamId: string, s: Slot<S, C, E>): Promise<void> {
    s.catchingUp = true;
    try {
      if (!s.loaded) {
        s.state = this.model.initial();
        s.version = 0;
      }
      const readAt = performance.now();
      const foreign = s.foreign;
      const events = await this.store.readStream(streamId, s.version + 1);
      for (const e of events) {
        s.state = this.model.evolve(s.state, { type: e.type, data: e.data } as E);
        s.version = e.streamVersion;
      }
      s.loaded = true;
      // An append by this process outside the writer heard during the read may be after it: read again.
      if (s.foreign === foreign) {
        s.freshAt = readAt;
        s.justRead = true;
      }
    } catch (err) {
      s.loaded = false;
      for (const p of s.queue.splice(0, this.opts.maxBatch ?? 500)) p.reject(err);
    } finally {
      s.decidedVersion = s.version;
      s.catchingUp = false;
    }
    this.pump(streamId, s);
  }
}
