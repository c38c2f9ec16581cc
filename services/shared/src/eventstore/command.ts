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

/**
 * A command on one stream: reads the stream into the decider's state, decides `command()` against it and
 * appends the events at the version read (`actor` in their metadata); all of it again when another writer
 * got to the stream first (retryOnConflict), `command()` included. Answers the stream's version after the
 * command (the version read when it decided nothing).
 */
export function decideAndAppend<C, S, E extends DomainEvent>(
  store: PostgresEventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: () => C | Promise<C>,
  actor?: string,
): Promise<number> {
  return retryOnConflict(async () => {
    const { state, version } = await store.aggregate<S, E>(streamId, decider.evolve, decider.initialState());
    const events = decider.decide(await command(), state);
    if (!events.length) return version;
    const r = await store.append(streamId, version, events, { metadata: { actor } });
    return r.nextExpectedVersion;
  });
}
