import type { Pool } from 'pg';
import { schemaIdentifier } from '../schema-name.ts';
import type { LogCursor } from './source-log-reader.ts';

interface Move {
  consumer: string;
  source: string;
  to: LogCursor;
  from: LogCursor;
  resolve: (moved: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Checkpoint moves past events nobody applied (PostgresLogSubscription's skipped batches), of the consumers of
 * this process that make them at once (their deferred wakes fall on the same tick): one conditional UPDATE per
 * checkpoints table for all of them. Each checkpoint still moves only if it is where its subscription left it.
 */
export class CheckpointMoves {
  private pending = new Map<string, Move[]>();
  private scheduled = false;

  constructor(private readonly pool: Pool) {}

  /** Moves the checkpoint of `consumer` (in `schema`) for `source` from `from` to `to`; false if it was elsewhere. */
  move(schema: string, consumer: string, source: string, to: LogCursor, from: LogCursor): Promise<boolean> {
    schemaIdentifier(schema);
    return new Promise<boolean>((resolve, reject) => {
      const moves = this.pending.get(schema) ?? [];
      moves.push({ consumer, source, to, from, resolve, reject });
      this.pending.set(schema, moves);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const bySchema = this.pending;
        this.pending = new Map();
        for (const [s, m] of bySchema) void this.send(s, m);
      });
    });
  }

  private async send(schema: string, moves: Move[]): Promise<void> {
    let left = moves;
    while (left.length > 0) {
      // One move per checkpoint in a statement (two instances of a consumer in one process each get an answer).
      const keys = new Set<string>();
      const now: Move[] = [];
      const later: Move[] = [];
      for (const m of left) {
        const key = `${m.consumer}\u0000${m.source}`;
        (keys.has(key) ? later : now).push(m);
        keys.add(key);
      }
      try {
        const { rows } = await this.pool.query<{ consumer: string; source: string }>(
          `UPDATE ${schemaIdentifier(schema)}.checkpoints c
              SET transaction_id = m.transaction_id::xid8, global_position = m.global_position, updated_at = now()
             FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[])
                    AS m(consumer, source, transaction_id, global_position, was_transaction_id, was_global_position)
            WHERE c.consumer = m.consumer AND c.source = m.source
              AND c.transaction_id = m.was_transaction_id::xid8 AND c.global_position = m.was_global_position
        RETURNING c.consumer, c.source`,
          [
            now.map((m) => m.consumer),
            now.map((m) => m.source),
            now.map((m) => m.to.transactionId.toString()),
            now.map((m) => m.to.globalPosition.toString()),
            now.map((m) => m.from.transactionId.toString()),
            now.map((m) => m.from.globalPosition.toString()),
          ],
        );
        const moved = new Set(rows.map((r) => `${r.consumer}\u0000${r.source}`));
        for (const m of now) m.resolve(moved.has(`${m.consumer}\u0000${m.source}`));
      } catch (err) {
        for (const m of now) m.reject(err);
      }
      left = later;
    }
  }
}
