import { StreamVersionConflictError } from './postgres-event-store.ts';

/**
 * Runs a read-decide-append attempt, retrying when another writer got to the stream first
 * (optimistic concurrency). The attempt must re-read state each time.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, maxAttempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof StreamVersionConflictError) || i >= maxAttempts) throw err;
    }
  }
}
