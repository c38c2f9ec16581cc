import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { wants } from '../bus/apply-event.ts';
import { schemaIdentifier } from '../bus/schema-name.ts';
import type { EventConsumer } from '../bus/types.ts';
import { EVENT_COLUMNS, PostgresEventStore, type EventRow } from '../eventstore/postgres-event-store.ts';
import type { RecordedEvent } from '../eventstore/types.ts';
import { writeFoldedRows, type ReplayFold, type ReplayFoldFactory } from './fold.ts';

/**
 * Rebuilds projections from position 0 into shadow tables, then either swaps them in (replay) or compares
 * them with the live tables (verify).
 *
 * Generic shadows: projections write schema-qualified names (`catalog.products`), so pointing search_path
 * at a scratch schema would not redirect them. Instead each declared table gets an UNLOGGED copy of its
 * definition (`CREATE TABLE ... (LIKE live INCLUDING ALL)`: columns in the same order, defaults, checks,
 * primary key, indexes) in a scratch schema `replay_<pid>_<random>`, and the projection's own handle()
 * runs on a client whose query text has every declared `schema.table` rewritten to its shadow. So the
 * projection code replayed is exactly the code the shop runs.
 *
 * Consistency with the live consumer: the bulk of the log is folded without locks; then, in one
 * transaction holding the consumer's checkpoint rows FOR UPDATE (the lock every live batch of the
 * Postgres-log subscription takes first), the shadow catches up with the log, and
 * - replay: the live tables' rows are replaced by the shadow's (the rows that differ deleted, the missing ones
 *   inserted, by primary key and whole row: readers see the old rows until the commit, then the new
 *   ones, never a half-built table), consumer_streams of the consumer
 *   is replaced by the versions the shadow saw, and the checkpoint is set to where the shadow stopped. The
 *   live consumer's next batch finds the checkpoint moved (or not), reloads it, and carries on from there.
 *   With Kafka, consumer_streams (per stream, as Kafka orders per stream) skips what the shadow already holds.
 * - verify: the shadow catches up exactly to the live checkpoint (no further), the tables are compared by an
 *   order-independent checksum (count and sum of 60-bit md5 prefixes of each row's text), and differing rows
 *   are named by primary key. The transaction is rolled back.
 *
 * Fast path (fold.ts): a target with a `fold` (a read model's in-memory run, projection-read-model.ts) is
 * not rebuilt through handle() for the bulk of the log. The folded targets of one source share one reader:
 * it reads the log in big batches (same order, same commit-safe head, through the store's fromRow so
 * upcasters apply) and each target runs the events it wants in memory; the rows are then written into the
 * shadows with COPY ... FROM STDIN. From there on the target is an ordinary shadow build: the tail past the
 * fold (and the catch-up under the lock) goes through the live consumer's handle() on the shadows, then the
 * same swap or compare.
 */

/** A projection and the tables it owns (schema-qualified, e.g. `catalog.products`). */
export interface ReplayTarget {
  consumer: EventConsumer;
  tables: readonly string[];
  /** An in-memory fold of the projection (the fast path); without one, handle() replays every event. */
  fold?: ReplayFoldFactory;
}

export interface ReplayProgress {
  done: number;
  total: number;
}

export interface ReplayOptions {
  pool: Pool;
  targets: readonly ReplayTarget[];
  /** Event stores of the sources (their upcasters apply on read); others are read without upcasters. */
  stores?: readonly PostgresEventStore[];
  /** Compare with the live tables instead of swapping. */
  verify?: boolean;
  /** Events read and applied per transaction (default 5000). */
  batchSize?: number;
  /** Projections rebuilt at once (default 2); the folded projections of one source count as one. */
  concurrency?: number;
  /** Events read per query by the fast path's shared reader (default 50000). */
  foldBatchSize?: number;
  onProgress?: (p: ReplayProgress) => void;
}

export type DifferenceKind = 'differs' | 'only in live' | 'missing from live';

export interface KeyDifference {
  /** The row's primary key as JSON (the whole row's text for a table without one). */
  key: string;
  kind: DifferenceKind;
}

export interface TableReport {
  table: string;
  rows: number;
  checksum: string;
  /** verify only: the live table's figures and the rows that differ (at most 50). */
  liveRows?: number;
  liveChecksum?: string;
  differences?: KeyDifference[];
}

export interface ProjectionReport {
  projection: string;
  events: number;
  /** Where the shadow stopped, per source: `<transaction id>/<position>`. */
  position: Record<string, string>;
  tables: TableReport[];
  ms: number;
  /** verify: every table's checksum equals the live one. */
  identical?: boolean;
}

interface Cursor {
  transactionId: bigint;
  globalPosition: bigint;
}
const ZERO: Cursor = { transactionId: 0n, globalPosition: 0n };
const after = (a: Cursor, b: Cursor) =>
  a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.globalPosition > b.globalPosition);

const TABLE_NAME = /^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)$/;

function splitTable(table: string): { schema: string; name: string } {
  const m = TABLE_NAME.exec(table);
  if (!m) throw new Error(`Bad table name ${JSON.stringify(table)}: expected schema.table`);
  return { schema: m[1]!, name: m[2]! };
}

/** A client whose query text has each `schema.table` of `map` replaced by its shadow. */
export function rewritingClient(client: PoolClient, map: ReadonlyMap<string, string>): PoolClient {
  const names = [...map.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace('.', '\\.'));
  const pattern = new RegExp(`(?<![\\w."])(${names.join('|')})(?![\\w"])`, 'g');
  const rewrite = (text: string) => text.replace(pattern, (m) => map.get(m)!);
  const query = (q: unknown, ...rest: unknown[]) => {
    const text =
      typeof q === 'string'
        ? rewrite(q)
        : q && typeof (q as { text?: unknown }).text === 'string'
          ? { ...(q as object), text: rewrite((q as { text: string }).text) }
          : q;
    return (client.query as (...args: unknown[]) => unknown)(text, ...rest);
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Order-independent checksum of a table: row count and the sum of a 60-bit md5 prefix of each row's text. */
export async function tableChecksum(
  client: Pool | PoolClient,
  table: string,
): Promise<{ rows: number; checksum: string }> {
  const { rows } = await client.query<{ n: string; s: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0)::text AS s
       FROM ${table} t`,
  );
  const n = Number(rows[0]!.n);
  return { rows: n, checksum: `${n}:${BigInt(rows[0]!.s).toString(16)}` };
}

/** Checksums of tables (schema-qualified names) as they are now. */
export async function tableChecksums(pool: Pool, tables: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const { schema, name } = splitTable(t);
    out[t] = (await tableChecksum(pool, `${schema}.${name}`)).checksum;
  }
  return out;
}

async function primaryKey(client: PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ attname: string }>(
    `SELECT a.attname FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table],
  );
  return rows.map((r) => r.attname);
}

/**
 * Types whose equality means the same text (so the checksum's row text). Not numeric or jsonb (1.0 = 1.00),
 * json (no equality) or floats (0 = -0): a jsonb column is compared by its text besides.
 */
const SAME_TEXT_TYPES = new Set([
  'text',
  'character varying',
  'smallint',
  'integer',
  'bigint',
  'boolean',
  'date',
  'timestamp with time zone',
  'timestamp without time zone',
  'uuid',
  'text[]',
  'integer[]',
  'bigint[]',
]);

/**
 * The condition under which rows `s` and `l` of two tables of the same columns have the same text: a
 * comparison of the rows where every column's equality means the same text (jsonb ones also by their text),
 * else the rows' text.
 */
async function sameRowText(client: PoolClient, table: string): Promise<string> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [table],
  );
  if (!rows.every((r) => SAME_TEXT_TYPES.has(r.type) || r.type === 'jsonb')) return 's::text = l::text';
  const jsonb = rows.filter((r) => r.type === 'jsonb').map((r) => ` AND s."${r.name}"::text = l."${r.name}"::text`);
  return `ROW(s.*) IS NOT DISTINCT FROM ROW(l.*)${jsonb.join('')}`;
}

async function differences(client: PoolClient, live: string, shadow: string): Promise<KeyDifference[]> {
  const pk = await primaryKey(client, live);
  const key = pk.length ? `json_build_object(${pk.map((c) => `'${c}', t."${c}"`).join(', ')})::text` : 't::text';
  const { rows } = await client.query<{ k: string; in_live: boolean; in_rebuilt: boolean }>(
    `WITH l AS (SELECT md5(t::text) AS h, ${key} AS k FROM ${live} t),
          s AS (SELECT md5(t::text) AS h, ${key} AS k FROM ${shadow} t),
          d AS ((SELECT h, k, 'live' AS side FROM (SELECT h, k FROM l EXCEPT ALL SELECT h, k FROM s) x)
                UNION ALL
                (SELECT h, k, 'rebuilt' AS side FROM (SELECT h, k FROM s EXCEPT ALL SELECT h, k FROM l) y))
     SELECT k, bool_or(side = 'live') AS in_live, bool_or(side = 'rebuilt') AS in_rebuilt
       FROM d GROUP BY k ORDER BY k LIMIT 50`,
  );
  return rows.map((r) => ({
    key: r.k,
    kind: r.in_live && r.in_rebuilt ? 'differs' : r.in_live ? 'only in live' : 'missing from live',
  }));
}

async function inTx<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const r = await work();
    await client.query('COMMIT');
    return r;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** One projection's rebuild. */
class ShadowBuild {
  readonly consumer: EventConsumer;
  readonly target: ReplayTarget;
  readonly tables: ReadonlyMap<string, string>;
  readonly versions = new Map<string, number>();
  readonly cursors = new Map<string, Cursor>();
  events = 0;
  private readonly types: string[] | null;

  constructor(
    target: ReplayTarget,
    private readonly shadowSchema: string,
    private readonly readers: (source: string) => PostgresEventStore,
    private readonly batchSize: number,
    private readonly progress: (n: number) => void,
  ) {
    this.consumer = target.consumer;
    this.target = target;
    schemaIdentifier(this.consumer.schema);
    this.tables = new Map(
      target.tables.map((t) => {
        const { schema, name } = splitTable(t);
        return [`${schema}.${name}`, `${shadowSchema}.${schema}__${name}`];
      }),
    );
    this.types = this.consumer.eventTypes ? [...this.consumer.eventTypes] : null;
    for (const s of this.consumer.sources) this.cursors.set(s, ZERO);
  }

  async createShadows(client: PoolClient): Promise<void> {
    for (const [live, shadow] of this.tables)
      await client.query(`CREATE UNLOGGED TABLE ${shadow} (LIKE ${live} INCLUDING ALL)`);
  }

  /** Wanted events of a source after its cursor: committed-safe (readAll's rule), or up to `upto` inclusive. */
  private async read(client: PoolClient, source: string, upto: Cursor | 'head'): Promise<RecordedEvent[]> {
    const from = this.cursors.get(source)!;
    const params: unknown[] = [from.transactionId.toString(), from.globalPosition.toString(), this.batchSize];
    let where = '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)';
    if (upto === 'head') where += ' AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())';
    else {
      params.push(upto.transactionId.toString(), upto.globalPosition.toString());
      where += ` AND (transaction_id, global_position) <= ($${params.length - 1}::text::xid8, $${params.length}::bigint)`;
    }
    if (this.types) {
      params.push(this.types);
      where += ` AND type = ANY($${params.length}::text[])`;
    }
    const { rows } = await client.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${schemaIdentifier(source)}.events WHERE ${where}
        ORDER BY transaction_id, global_position LIMIT $3`,
      params,
    );
    const store = this.readers(source);
    return rows.map((r) => store.fromRow(r));
  }

  /**
   * Fast path: folds a batch of the source's log (any types, in log order) in memory, up to `upto`; moves
   * the cursor past every event it looked at. Answers whether it stopped at `upto`.
   */
  foldBatch(fold: ReplayFold, source: string, events: readonly RecordedEvent[], upto: Cursor | 'head'): boolean {
    let cursor = this.cursors.get(source)!;
    let n = 0;
    let reached = false;
    for (const event of events) {
      if (upto !== 'head' && after(event, upto)) {
        reached = true;
        break;
      }
      cursor = event;
      if (!wants(this.consumer, event.type)) continue;
      n += 1;
      const seen = this.versions.get(event.streamId) ?? 0;
      if (event.streamVersion <= seen) continue;
      try {
        fold.apply(event);
      } catch (err) {
        throw new Error(
          `${this.consumer.name} (fold) failed on ${source}#${event.globalPosition} ${event.type} ${event.streamId}@${event.streamVersion}: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
      this.versions.set(event.streamId, event.streamVersion);
    }
    this.cursors.set(source, { transactionId: cursor.transactionId, globalPosition: cursor.globalPosition });
    this.events += n;
    this.progress(n);
    return reached;
  }

  /** Writes a fold's rows into the shadows. */
  async writeFold(client: PoolClient, fold: ReplayFold): Promise<void> {
    for (const t of fold.tables()) {
      const shadow = this.tables.get(t.table);
      if (!shadow) throw new Error(`${this.consumer.name}'s fold wrote ${t.table}, not one of its tables`);
      await writeFoldedRows(client, shadow, t.columns, t.rows);
      await client.query(`ANALYZE ${shadow}`); // plans for the tail's statements and the swap's comparison
    }
  }

  /** Applies one batch in the caller's transaction; false when the source had nothing more. */
  async step(client: PoolClient, source: string, upto: Cursor | 'head'): Promise<boolean> {
    const events = await this.read(client, source, upto);
    if (events.length === 0) return false;
    const tx = rewritingClient(client, this.tables);
    for (const event of events) {
      if (!wants(this.consumer, event.type)) continue;
      const seen = this.versions.get(event.streamId) ?? 0;
      if (event.streamVersion <= seen) continue; // as applyEvent's claim: a stream's versions only go up
      try {
        await this.consumer.handle(event, tx);
      } catch (err) {
        throw new Error(
          `${this.consumer.name} failed on ${source}#${event.globalPosition} ${event.type} ${event.streamId}@${event.streamVersion}: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      }
      this.versions.set(event.streamId, event.streamVersion);
    }
    const last = events[events.length - 1]!;
    this.cursors.set(source, { transactionId: last.transactionId, globalPosition: last.globalPosition });
    this.events += events.length;
    this.progress(events.length);
    return events.length === this.batchSize;
  }

  /** Folds a source's log into the shadows, one transaction per batch. */
  async bulk(client: PoolClient, upto: (source: string) => Cursor | 'head'): Promise<void> {
    for (const source of this.consumer.sources) {
      while (await inTx(client, () => this.step(client, source, upto(source)))) {
        // next batch
      }
    }
  }

  async catchUp(client: PoolClient, source: string, upto: Cursor | 'head'): Promise<void> {
    while (await this.step(client, source, upto)) {
      // next batch
    }
  }

  async report(client: PoolClient, compare: boolean): Promise<TableReport[]> {
    const out: TableReport[] = [];
    for (const [live, shadow] of this.tables) {
      const built = await tableChecksum(client, shadow);
      const r: TableReport = { table: live, rows: built.rows, checksum: built.checksum };
      if (compare) {
        const now = await tableChecksum(client, live);
        r.liveRows = now.rows;
        r.liveChecksum = now.checksum;
        r.differences = now.checksum === built.checksum ? [] : await differences(client, live, shadow);
      }
      out.push(r);
    }
    return out;
  }

  /** Replaces the live rows, the consumer's stream versions and its checkpoints, in the caller's transaction. */
  async swap(client: PoolClient, live: Map<string, Cursor>): Promise<void> {
    // The comparisons as hash joins in memory: never a nested loop over a live table that the statement
    // itself fills (an empty live table's statistics invite one, and it goes quadratic).
    await client.query(`SET LOCAL work_mem = '128MB'`);
    await client.query(`SET LOCAL enable_nestloop = off`);
    for (const [table, shadow] of this.tables) {
      // Only the rows that differ are written: a row whose key and whole text are in the shadow stays, so
      // replaying an up-to-date projection writes next to nothing (and a table without a key is rewritten).
      const pk = await primaryKey(client, table);
      if (pk.length === 0) {
        await client.query(`DELETE FROM ${table}`);
        await client.query(`INSERT INTO ${table} SELECT * FROM ${shadow}`);
        continue;
      }
      const same = (a: string, b: string) => pk.map((c) => `${a}."${c}" = ${b}."${c}"`).join(' AND ');
      const identical = await sameRowText(client, table);
      await client.query(
        `DELETE FROM ${table} l WHERE NOT EXISTS (SELECT 1 FROM ${shadow} s WHERE ${same('s', 'l')} AND ${identical})`,
      );
      await client.query(
        `INSERT INTO ${table} SELECT * FROM ${shadow} s WHERE NOT EXISTS (SELECT 1 FROM ${table} l WHERE ${same('l', 's')})`,
      );
    }
    const schema = schemaIdentifier(this.consumer.schema);
    // The consumer's stream versions become the shadow's: copied into a scratch table, then only the
    // versions that differ are written.
    const streams = `${this.shadowSchema}."streams ${this.consumer.name.replace(/"/g, '')}"`;
    await client.query(`CREATE UNLOGGED TABLE ${streams} (stream_id text PRIMARY KEY, stream_version int NOT NULL)`);
    await writeFoldedRows(client, streams, ['stream_id', 'stream_version'], this.versions);
    await client.query(`ANALYZE ${streams}`);
    await client.query(
      `DELETE FROM ${schema}.consumer_streams c WHERE c.consumer = $1 AND NOT EXISTS
         (SELECT 1 FROM ${streams} n WHERE n.stream_id = c.stream_id AND n.stream_version = c.stream_version)`,
      [this.consumer.name],
    );
    await client.query(
      `INSERT INTO ${schema}.consumer_streams (consumer, stream_id, stream_version)
       SELECT $1, n.stream_id, n.stream_version FROM ${streams} n
        WHERE NOT EXISTS (SELECT 1 FROM ${schema}.consumer_streams c WHERE c.consumer = $1 AND c.stream_id = n.stream_id)`,
      [this.consumer.name],
    );
    for (const source of this.consumer.sources) {
      const mine = this.cursors.get(source)!;
      const theirs = live.get(source) ?? ZERO;
      // Everything wanted up to the commit-safe head is in the shadow; never move the checkpoint back.
      const at = after(theirs, mine) ? theirs : mine;
      await client.query(
        `UPDATE ${schema}.checkpoints SET transaction_id = $3::text::xid8, global_position = $4, updated_at = now()
          WHERE consumer = $1 AND source = $2`,
        [this.consumer.name, source, at.transactionId.toString(), at.globalPosition.toString()],
      );
      this.cursors.set(source, at);
    }
  }

  /** Locks the consumer's checkpoint rows (creating them if it never ran) and returns them. */
  async lockCheckpoints(client: PoolClient): Promise<Map<string, Cursor>> {
    const schema = schemaIdentifier(this.consumer.schema);
    const { rows } = await client.query<{ source: string; transaction_id: string; global_position: string }>(
      `SELECT source, transaction_id::text, global_position::text FROM ${schema}.checkpoints
        WHERE consumer = $1 AND source = ANY($2) ORDER BY source FOR UPDATE`,
      [this.consumer.name, this.consumer.sources],
    );
    return new Map(
      rows.map((r) => [
        r.source,
        { transactionId: BigInt(r.transaction_id), globalPosition: BigInt(r.global_position) },
      ]),
    );
  }

  async ensureCheckpoints(client: PoolClient): Promise<void> {
    for (const source of this.consumer.sources)
      await client.query(
        `INSERT INTO ${schemaIdentifier(this.consumer.schema)}.checkpoints (consumer, source) VALUES ($1, $2)
         ON CONFLICT DO NOTHING`,
        [this.consumer.name, source],
      );
  }
}

async function countWanted(pool: Pool, target: ReplayTarget): Promise<number> {
  let n = 0;
  for (const source of target.consumer.sources) {
    const types = target.consumer.eventTypes ? [...target.consumer.eventTypes] : null;
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${schemaIdentifier(source)}.events WHERE $1::text[] IS NULL OR type = ANY($1)`,
      [types],
    );
    n += Number(rows[0]!.n);
  }
  return n;
}

/**
 * What the in-memory runs read of each event: what evolve is given (data, type, stream and position), not
 * the metadata or the event id, which pg would parse for nothing a million times.
 */
const FOLD_COLUMNS =
  "global_position, transaction_id, stream_id, stream_version, '' AS event_id, type, schema_version, data, NULL AS metadata";

/**
 * Fast path: the shared reader of one source for its folded builds. Reads the source's log from position 0
 * in big batches (commit-safe head, or up to the furthest of the builds' bounds) and hands each batch to
 * every build's fold; then writes the folds' rows into the shadows.
 */
async function foldSource(
  client: PoolClient,
  source: string,
  builds: ReadonlyArray<{ build: ShadowBuild; fold: ReplayFold; upto: Cursor | 'head' }>,
  store: PostgresEventStore,
  batchSize: number,
): Promise<void> {
  const types = builds.some((b) => !b.build.consumer.eventTypes)
    ? null
    : [...new Set(builds.flatMap((b) => [...b.build.consumer.eventTypes!]))];
  const bounds = builds.map((b) => b.upto);
  const upto = bounds.includes('head') ? 'head' : (bounds as Cursor[]).reduce((m, c) => (after(c, m) ? c : m), ZERO);
  let from = ZERO;
  let active = [...builds];
  for (;;) {
    const params: unknown[] = [from.transactionId.toString(), from.globalPosition.toString(), batchSize];
    let where = '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)';
    if (upto === 'head') where += ' AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())';
    else {
      params.push(upto.transactionId.toString(), upto.globalPosition.toString());
      where += ` AND (transaction_id, global_position) <= ($${params.length - 1}::text::xid8, $${params.length}::bigint)`;
    }
    if (types) {
      params.push(types);
      where += ` AND type = ANY($${params.length}::text[])`;
    }
    const { rows } = await client.query<EventRow>(
      `SELECT ${FOLD_COLUMNS} FROM ${schemaIdentifier(source)}.events WHERE ${where}
        ORDER BY transaction_id, global_position LIMIT $3`,
      params,
    );
    if (rows.length === 0) break;
    const events = rows.map((r) => store.fromRow(r));
    active = active.filter((b) => !b.build.foldBatch(b.fold, source, events, b.upto));
    const last = events[events.length - 1]!;
    from = { transactionId: last.transactionId, globalPosition: last.globalPosition };
    if (rows.length < batchSize || active.length === 0) break;
  }
  for (const b of builds) await b.build.writeFold(client, b.fold);
}

/** Rebuilds (or verifies) the targets; see the module comment. Shadow tables are dropped at the end. */
export async function replayProjections(options: ReplayOptions): Promise<ProjectionReport[]> {
  const { pool, targets, verify = false, batchSize = 5_000, concurrency = 2, foldBatchSize = 50_000 } = options;
  const stores = new Map((options.stores ?? []).map((s) => [s.schema, s]));
  const readers = (source: string) => {
    let s = stores.get(source);
    if (!s) stores.set(source, (s = new PostgresEventStore(pool, schemaIdentifier(source))));
    return s;
  };
  const shadowSchema = `replay_${process.pid}_${randomBytes(3).toString('hex')}`;
  let total = 0;
  const wanted = new Map<ReplayTarget, number>();
  for (const t of targets) {
    wanted.set(t, await countWanted(pool, t));
    total += wanted.get(t)!;
  }
  let done = 0;
  options.onProgress?.({ done, total });
  const progress = (n: number) => {
    done += n;
    options.onProgress?.({ done, total: Math.max(total, done) });
  };

  // Jobs: the folded targets of one source together (one shared reader), every other target alone.
  const jobs: ReplayTarget[][] = [];
  const folded = new Map<string, ReplayTarget[]>();
  for (const t of targets) {
    if (t.fold && t.consumer.sources.length === 1) {
      const source = t.consumer.sources[0]!;
      if (!folded.has(source)) jobs.push(folded.set(source, []).get(source)!);
      folded.get(source)!.push(t);
    } else jobs.push([t]);
  }
  // Longest first (a handle() event costs about what 50 folded ones do), so the short ones fill in around them.
  const cost = (job: ReplayTarget[]) => job.reduce((n, t) => n + wanted.get(t)! * (t.fold ? 1 : 50), 0);
  jobs.sort((a, b) => cost(b) - cost(a));

  await pool.query(`CREATE SCHEMA ${shadowSchema}`);
  try {
    const reports: ProjectionReport[] = [];
    const finish = async (client: PoolClient, build: ShadowBuild, start: Map<string, Cursor>, started: number) => {
      const target = build.target;
      // The rest of the log (past a fold) through handle(), without locks.
      await build.bulk(client, (source) => (verify ? (start.get(source) ?? ZERO) : 'head'));
      const report = await inTx(client, async () => {
        const live = await build.lockCheckpoints(client);
        for (const source of target.consumer.sources)
          await build.catchUp(client, source, verify ? (live.get(source) ?? ZERO) : 'head');
        if (!verify) await build.swap(client, live);
        const tables = await build.report(client, verify);
        if (verify) await client.query('ROLLBACK AND CHAIN'); // compare only: keep nothing
        return tables;
      });
      if (!verify) {
        try {
          await target.consumer.afterCommit?.([]);
        } catch {
          // cache invalidation is best effort, as after any projection commit
        }
      }
      reports.push({
        projection: target.consumer.name,
        events: build.events,
        position: Object.fromEntries(
          [...build.cursors].map(([s, c]) => [s, `${c.transactionId.toString()}/${c.globalPosition.toString()}`]),
        ),
        tables: report,
        ms: Date.now() - started,
        ...(verify ? { identical: report.every((t) => t.checksum === t.liveChecksum) } : {}),
      });
    };
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        const started = Date.now();
        const client = await pool.connect();
        try {
          const builds: Array<{ build: ShadowBuild; start: Map<string, Cursor>; fold?: ReplayFold }> = [];
          for (const target of job) {
            const build = new ShadowBuild(target, shadowSchema, readers, batchSize, progress);
            await build.createShadows(client);
            await build.ensureCheckpoints(client);
            // verify folds up to the live checkpoint as it is now, replay up to the commit-safe head.
            const start = verify ? await build.lockCheckpoints(client) : new Map<string, Cursor>();
            builds.push({ build, start, fold: target.fold?.() });
          }
          if (builds[0]!.fold) {
            const source = job[0]!.consumer.sources[0]!;
            await foldSource(
              client,
              source,
              builds.map((b) => ({
                build: b.build,
                fold: b.fold!,
                upto: verify ? (b.start.get(source) ?? ZERO) : 'head',
              })),
              readers(source),
              foldBatchSize,
            );
          }
          for (const b of builds) await finish(client, b.build, b.start, started);
        } finally {
          client.release();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
    const order = new Map(targets.map((t, i) => [t.consumer.name, i]));
    return reports.sort((a, b) => order.get(a.projection)! - order.get(b.projection)!);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${shadowSchema} CASCADE`);
  }
}
