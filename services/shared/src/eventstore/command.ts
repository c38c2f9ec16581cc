import { retry } from '../retry/retry.ts';
import { StreamVersionConflictError } from './postgres-event-store.ts';

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
