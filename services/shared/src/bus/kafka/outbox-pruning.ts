import type { Pool, PoolClient } from 'pg';
import { schemaIdentifier } from '../schema-name.ts';

/** How long a published outbox row is kept by default (the relay's `publishedRetentionMs`): one hour. */
export const OUTBOX_PUBLISHED_RETENTION_MS = 60 * 60_000;

/**
 * Deletes up to `limit` outbox rows of `schema` published more than `retentionMs` ago, oldest first, and
 * returns how many. A row not yet published is never deleted: the relay still owes it to Kafka. The events
 * themselves stay in the log; the outbox row only told the relay what to send.
 */
export async function prunePublishedOutbox(
  db: Pool | PoolClient,
  schema: string,
  retentionMs: number,
  limit: number,
): Promise<number> {
  const s = schemaIdentifier(schema);
  const { rowCount } = await db.query(
    `DELETE FROM ${s}.outbox
      WHERE global_position IN (
        SELECT global_position FROM ${s}.outbox
         WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::float8 / 1000)
         ORDER BY global_position
         LIMIT $2)`,
    [retentionMs, limit],
  );
  return rowCount ?? 0;
}
