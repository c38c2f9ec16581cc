import type { PostgresEventStore } from './postgres-event-store.ts';
import type { AppendResult, DomainEvent, EventMetadata } from './types.ts';

interface Pending {
  item: { streamId: string; events: DomainEvent[]; metadata?: Partial<EventMetadata> };
  resolve: (r: AppendResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for streams that start with their first append (a payment order per checkout): appends
 * queue while a batch is being written, and the next batch writes all of them in one transaction. A batch
 * that fails is retried one stream at a time, so one bad append fails only its own caller.
 */
export class NewStreamAppender {
  private queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly store: PostgresEventStore,
    private readonly maxBatch = 200,
  ) {}

  /** Appends `events` as the first events of `streamId` (StreamVersionConflictError if it exists). */
  start(streamId: string, events: DomainEvent[], metadata?: Partial<EventMetadata>): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ item: { streamId, events, metadata }, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.store.appendToNewStreams(batch.map((p) => p.item));
          batch.forEach((p, i) => p.resolve(results[i]!));
        } catch (err) {
          if (batch.length === 1) batch[0]!.reject(err);
          else
            await Promise.all(
              batch.map((p) =>
                this.store.appendToNewStreams([p.item]).then(
                  (r) => p.resolve(r[0]!),
                  (e: unknown) => p.reject(e),
                ),
              ),
            );
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
