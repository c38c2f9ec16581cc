import type { Pool } from 'pg';
import { listParkedEvents, replayParkedEvent, type ParkedEvent } from '../bus/parked-events.ts';
import type { EventConsumer } from '../bus/types.ts';
import { schemaIdentifier } from '../bus/schema-name.ts';
import { indiaTime, type EventPlace } from './event-history.ts';

/** A parked event with the schema whose parked_events holds it; `ref` (`<schema>:<id>`) names it for --replay. */
export interface ParkedEntry extends EventPlace {
  ref: string;
  schema: string;
  id: string;
  consumer: string;
  error: string;
  attempts: number;
  parkedAt: string;
  parkedAtIndia: string;
  replayedAt: string | null;
  data: unknown;
}

const toEntry = (schema: string, p: ParkedEvent): ParkedEntry => ({
  ref: `${schema}:${p.id}`,
  schema,
  id: String(p.id),
  consumer: p.consumer,
  source: p.source,
  position: String(p.globalPosition),
  streamId: p.streamId,
  streamVersion: p.streamVersion,
  eventId: p.eventId,
  type: p.type,
  error: p.error,
  attempts: p.attempts,
  parkedAt: p.parkedAt.toISOString(),
  parkedAtIndia: indiaTime(p.parkedAt),
  replayedAt: p.replayedAt ? p.replayedAt.toISOString() : null,
  data: p.event.data,
});

/** Parked events of every schema (not yet replayed unless `includeReplayed`), oldest first per schema. */
export async function listAllParked(
  pool: Pool,
  schemas: readonly string[],
  opts: { includeReplayed?: boolean } = {},
): Promise<ParkedEntry[]> {
  const out: ParkedEntry[] = [];
  for (const schema of schemas) {
    const parked = await listParkedEvents({ pool, schema, includeReplayed: opts.includeReplayed, limit: 10_000 });
    out.push(...parked.map((p) => toEntry(schema, p)));
  }
  return out;
}

export interface ParkedReplayResult {
  ref: string;
  consumer: string;
  ok: boolean;
  error?: string;
}

/**
 * Replays parked events (`all`, or refs `<schema>:<id>`; a bare id is accepted when only one schema has it)
 * through their consumers' handlers (replayParkedEvent): on success the row is marked replayed, so the
 * parked gauge (which counts rows not replayed) goes down. A failing one keeps its row with the new error.
 */
export async function replayParked(
  pool: Pool,
  schemas: readonly string[],
  consumers: readonly EventConsumer[],
  which: 'all' | string[],
): Promise<ParkedReplayResult[]> {
  const parked = await listAllParked(pool, schemas);
  let chosen: ParkedEntry[];
  if (which === 'all') chosen = parked;
  else {
    chosen = [];
    for (const ref of which) {
      const match = parked.filter((p) => p.ref === ref || (!ref.includes(':') && p.id === ref));
      if (match.length === 0) throw new Error(`No parked event ${ref} waiting for a replay`);
      if (match.length > 1)
        throw new Error(`${ref} names ${match.map((m) => m.ref).join(' and ')}: give <schema>:<id>`);
      chosen.push(match[0]!);
    }
  }
  const results: ParkedReplayResult[] = [];
  for (const p of chosen) {
    const consumer = consumers.find((c) => c.name === p.consumer && c.schema === p.schema);
    if (!consumer) {
      results.push({ ref: p.ref, consumer: p.consumer, ok: false, error: `unknown consumer ${p.consumer}` });
      continue;
    }
    try {
      const ok = await replayParkedEvent({ pool, consumer, id: p.id });
      results.push({ ref: p.ref, consumer: p.consumer, ok, ...(ok ? {} : { error: 'no longer parked' }) });
    } catch (err) {
      results.push({
        ref: p.ref,
        consumer: p.consumer,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return results;
}

/** Counts of parked events not yet replayed, per consumer (what the parked_events gauge shows). */
export async function parkedCounts(pool: Pool, schemas: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const schema of schemas) {
    const { rows } = await pool.query<{ consumer: string; n: number }>(
      `SELECT consumer, count(*)::int AS n FROM ${schemaIdentifier(schema)}.parked_events WHERE replayed_at IS NULL GROUP BY consumer`,
    );
    for (const r of rows) counts.set(r.consumer, (counts.get(r.consumer) ?? 0) + r.n);
  }
  return counts;
}

export function formatParked(entries: ParkedEntry[]): string {
  if (entries.length === 0) return 'No parked events.';
  const lines = [`${entries.length} parked event${entries.length === 1 ? '' : 's'}:`];
  for (const p of entries) {
    lines.push(
      `${p.ref.padEnd(12)} ${p.parkedAtIndia}  ${p.consumer}  ${p.type}  ${p.source}#${p.position} ${p.streamId}@${p.streamVersion}  attempts ${p.attempts}`,
      `${' '.repeat(13)}error: ${p.error}`,
    );
  }
  lines.push('Replay with: npm run audit -- parked --replay <schema:id ...|all>');
  return lines.join('\n');
}
