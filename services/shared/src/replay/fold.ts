import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';

/**
 * The fast replay path: a read model run in memory (projection-read-model.ts, fold()). It applies the read
 * model's events to rows held in memory with the same evolve that runs live, and answers those rows, which
 * the replay writes into the shadow tables with COPY ... FROM STDIN, as text in the form node-postgres
 * sends a parameter (the live runtime writes the same text), so the rows are byte-identical
 * (tests/ops/replay-live.int.spec.ts).
 */

/** One table's rows as an in-memory run holds them. */
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
export function copyText(v: unknown): string | null {
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
    const s = copyText(e)!;
    return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/** A value in COPY's text format: \N for NULL, backslash, newline, carriage return and tab escaped. */
function copyField(v: unknown): string {
  const t = copyText(v);
  if (t === null) return '\\N';
  return /[\\\n\r\t]/.test(t) ? t.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]!) : t;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The protocol side of node-postgres's Connection that a COPY FROM STDIN needs. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableLength: number };
}

/**
 * `COPY ... FROM STDIN` on a node-postgres client, as a submittable query (the same hooks pg-copy-streams
 * uses): the client queues it like any query, and on CopyInResponse it streams `lines`, waiting for the
 * socket to drain, then ends the copy. Settles at ReadyForQuery, with the server's error if there was one.
 */
class CopyFromStdin {
  private error: Error | undefined;
  private settle!: { resolve: () => void; reject: (err: Error) => void };
  readonly done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor(
    private readonly sql: string,
    private readonly lines: () => Iterable<string>,
  ) {}

  submit(connection: CopyConnection): void {
    connection.query(this.sql);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    void (async () => {
      try {
        let buffer = '';
        for (const line of this.lines()) {
          buffer += line;
          if (buffer.length >= 1 << 20) {
            connection.sendCopyFromChunk(Buffer.from(buffer));
            buffer = '';
            if (connection.stream.writableLength > 16 << 20)
              await new Promise((resolve) => connection.stream.once('drain', resolve));
          }
        }
        if (buffer) connection.sendCopyFromChunk(Buffer.from(buffer));
        connection.endCopyFrom();
      } catch (err) {
        this.error = err instanceof Error ? err : new Error(String(err));
        connection.sendCopyFail(this.error.message);
      }
    })();
  }

  handleError(err: Error): void {
    this.error ??= err;
  }

  handleReadyForQuery(): void {
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve();
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/**
 * Writes folded rows into a (shadow) table with `COPY ... FROM STDIN`: every value in Postgres text input
 * form, read by its column's input function as a text parameter would be.
 */
export async function writeFoldedRows(
  client: PoolClient,
  shadow: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<void> {
  const copy = new CopyFromStdin(
    `COPY ${shadow} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`,
    function* () {
      for (const row of rows) {
        let line = '';
        for (let i = 0; i < columns.length; i++) line += (i ? '\t' : '') + copyField(row[i]);
        yield `${line}\n`;
      }
    },
  );
  await (client as unknown as { query: (q: CopyFromStdin) => unknown }).query(copy);
  await copy.done;
}

/** Milliseconds of a timestamp parameter (NaN if it is not one). */
const instant = (v: string | Date) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** SQL's greatest(a, b) of two timestamps (a NULL argument is ignored). */
export function greatestTime<T extends string | Date | null | undefined>(a: T, b: T): T {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  return instant(b) > instant(a) ? b : a;
}
