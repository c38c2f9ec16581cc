import type { Pool } from 'pg';
import { schemaIdentifier } from '../bus/schema-name.ts';
import type { HistoryEntry } from '../contracts/event-history.ts';
import { INDIA_OFFSET_MS } from '../time/india-date.ts';

/**
 * What every service's history parts are made of: events of its own log read as an auditor reads them, and
 * the one merge of parts from several logs. Knows no service: each passes its own schema.
 */

interface Row {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown> | null;
  recorded_at: Date;
}

/** `2026-11-22 15:45:00.000 IST` for an instant. */
export function indiaTime(at: Date): string {
  return `${new Date(at.getTime() + INDIA_OFFSET_MS).toISOString().replace('T', ' ').replace('Z', '')} IST`;
}

const COLUMNS = `global_position::text, transaction_id::text, stream_id, stream_version, event_id, type, schema_version,
  data, metadata, recorded_at`;

/** The events of `schema`'s log matching `where` (SQL over its events table), in commit order. */
export async function readHistory(
  pool: Pool,
  schema: string,
  where: string,
  params: unknown[],
): Promise<HistoryEntry[]> {
  const { rows } = await pool.query<Row>(
    `SELECT ${COLUMNS} FROM ${schemaIdentifier(schema)}.events WHERE ${where}
      ORDER BY transaction_id, global_position`,
    params,
  );
  return rows.map((row) => toEntry(schema, row));
}

function toEntry(source: string, row: Row): HistoryEntry {
  const meta = row.metadata ?? {};
  const occurred = typeof meta.occurredAt === 'string' ? new Date(meta.occurredAt) : row.recorded_at;
  const at = Number.isNaN(occurred.getTime()) ? row.recorded_at : occurred;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    source,
    position: row.global_position,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    eventId: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    time: at.toISOString(),
    indiaTime: indiaTime(at),
    actor: text(meta.actor),
    correlationId: text(meta.correlationId),
    causationId: text(meta.causationId),
    data: row.data,
  };
}

/**
 * Log order across logs: each part's events stay in their commit order; parts are interleaved by the time
 * their events occurred (`time`: the appending process's clock, else recorded_at; positions of different
 * schemas are not comparable). An event in two parts is kept once, where it first appears.
 */
export function inLogOrder(parts: HistoryEntry[][]): HistoryEntry[] {
  const seen = new Set<string>();
  const lists = parts.map((p) => p.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId)));
  const heads = lists.map(() => 0);
  const out: HistoryEntry[] = [];
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const e = lists[i]![heads[i]!];
      if (!e) continue;
      const b = best < 0 ? undefined : lists[best]![heads[best]!]!;
      if (!b || Date.parse(e.time) < Date.parse(b.time)) best = i;
    }
    if (best < 0) return out;
    out.push(lists[best]![heads[best]!]!);
    heads[best]! += 1;
  }
}
