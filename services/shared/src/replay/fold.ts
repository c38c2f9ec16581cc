import type { Pool, PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';

/**
 * The fast replay path: a projection's pure in-memory fold. It applies the projection's events to rows held
 * in memory exactly as the projection's handle() would write them, and answers those rows, which the replay
 * writes into the shadow tables with multi-row INSERTs (unnest). A fold must give byte-identical rows (the
 * replay's checksums), which tests/ops/replay-fold.int.spec.ts proves against the generic path.
 */

/** One table's rows as a fold holds them. */
export interface FoldedTable {
  /** The live table, schema-qualified (`catalog.products`), one of the projection's declared tables. */
  table: string;
  columns: readonly string[];
  /**
   * One array per row, in `columns` order, each value as handle() passes it as a query parameter: a string
   * (also for timestamps, JSON text and numbers in text), number, boolean, null/undefined, or an array.
   * Columns left out take their defaults.
   */
  rows: Iterable<readonly unknown[]>;
}

export interface ReplayFold {
  /** Applies one event the consumer wants, at a stream version it has not applied yet. */
  apply(event: RecordedEvent): void;
  /** The folded rows of each table (every declared table, empty ones too). */
  tables(): FoldedTable[];
}

export type ReplayFoldFactory = () => ReplayFold;

/** A value in Postgres text input form, as node-postgres would send it (null for NULL). */
function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return arrayLiteral(v);
  return JSON.stringify(v);
}

/** node-postgres's array literal: every element quoted, NULL bare, nested arrays nested. */
function arrayLiteral(a: readonly unknown[]): string {
  const parts = a.map((e) => {
    if (e === null || e === undefined) return 'NULL';
    if (Array.isArray(e)) return arrayLiteral(e);
    const s = text(e)!;
    return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/** Rows per INSERT statement. */
const CHUNK = 20_000;

/**
 * Writes folded rows into a (shadow) table: `INSERT ... SELECT c::type, ... FROM unnest($1::text[], ...)`,
 * every value sent as text and cast to its column's type, as a parameter would be. Each chunk is its own
 * short statement (the shadows are private, nobody reads them half-written).
 */
export async function writeFoldedRows(
  db: Pool | PoolClient,
  shadow: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<number> {
  const { rows: attrs } = await db.query<{ attname: string; type: string }>(
    `SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [shadow],
  );
  const types = new Map(attrs.map((a) => [a.attname, a.type]));
  const casts = columns.map((c, i) => {
    const t = types.get(c);
    if (!t) throw new Error(`${shadow} has no column ${c}`);
    return `u.c${i}::${t}`;
  });
  const sql =
    `INSERT INTO ${shadow} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${casts.join(', ')} ` +
    `FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${columns.map((_, i) => `c${i}`).join(', ')})`;
  let written = 0;
  let batch: Array<Array<string | null>> = columns.map(() => []);
  let n = 0;
  const flush = async () => {
    if (n === 0) return;
    await db.query(sql, batch);
    written += n;
    batch = columns.map(() => []);
    n = 0;
  };
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) batch[i]!.push(text(row[i]));
    n += 1;
    if (n >= CHUNK) await flush();
  }
  await flush();
  return written;
}

/** Milliseconds of a timestamp parameter (NaN if it is not one). */
const instant = (v: string | Date) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** SQL's greatest(a, b) of two timestamps (a NULL argument is ignored). */
export function greatestTime<T extends string | Date | null | undefined>(a: T, b: T): T {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  return instant(b) > instant(a) ? b : a;
}
