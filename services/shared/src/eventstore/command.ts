import { retry } from '../retry/retry.ts';
import { StreamVersionConflictError, type PostgresEventStore } from './postgres-event-store.ts';
import type { Decider, DomainEvent } from './types.ts';

/**
 * Runs a read-decide-append attempt, retrying when another writer got to the stream first
 * (optimistic concurrency). The attempt must re-read state each time.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, maxAttempts = 5): Promise<T> {
  // At once: the writer that won has committed, so the next read sees its events.
  return retry(() => attempt(), {
    baseMs: 0,
    attempts: maxAttempts,
    shouldRetry: (err) => err instanceof StreamVersionConflictError,
  });
}

/** What a command on one stream decided: the state it decided on, the events appended (none when it decided nothing) and the stream's version after. */
export interface Decision<S, E extends DomainEvent> {
  state: S;
  events: E[];
  version: number;
}

export interface CommandOptions<S = unknown> {
  /** Recorded in the appended events' metadata. */
  actor?: string;
  /** Attempts in all before a version conflict is thrown (retryOnConflict). */
  maxAttempts?: number;
  /**
   * The stream as the caller has just read it: the first attempt decides on it instead of reading the stream
   * again (the append still checks its version; a conflict reads afresh).
   */
  loaded?: { state: S; version: number };
}

/**
 * A command on one stream: reads the stream into the decider's state, decides `command(state)` against it and
 * appends the events at the version read (`actor` in their metadata); all of it again when another writer
 * got to the stream first (retryOnConflict), `command()` included. Answers the stream's version after the
 * command (the version read when it decided nothing).
 */
export async function decideAndAppend<C, S, E extends DomainEvent>(
  store: PostgresEventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: (state: S) => C | Promise<C>,
  options?: string | CommandOptions<S>,
): Promise<number> {
  return (await decideOnStream(store, streamId, decider, command, options)).version;
}

/** decideAndAppend answering the whole decision, for a caller that acts on what was decided. */
export function decideOnStream<C, S, E extends DomainEvent>(
  store: PostgresEventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: (state: S) => C | Promise<C>,
  options: string | CommandOptions<S> = {},
): Promise<Decision<S, E>> {
  const { actor, maxAttempts, loaded } = typeof options === 'string' ? { actor: options } : options;
  let known = loaded;
  return retryOnConflict(async () => {
    const { state, version } = known ?? (await store.aggregate<S, E>(streamId, decider.evolve, decider.initialState()));
    known = undefined;
    const events = decider.decide(await command(state), state);
    if (!events.length) return { state, events, version };
    const r = await store.append(streamId, version, events, { metadata: { actor } });
    return { state, events, version: r.nextExpectedVersion };
  }, maxAttempts);
}
