import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';
import { copyText, type FoldedTable, type ReplayFold } from '../replay/fold.ts';
import { handlersByType, type EventData, type TypedEvent } from './projection.ts';
import { RowTable, type TableDeclaration } from './projection-rows.ts';
import type { EventConsumer } from './types.ts';

/**
 * A read model defined once (after Emmett's projections: one evolve per read model): its tables and, per
 * event type, one pure function from (rows, event) to row changes, written against RowTable. The one
 * definition runs
 * - live, as an EventConsumer on the bus: the rows a batch of events touches are loaded from Postgres (one
 *   SELECT per table), evolved in memory, and written back as one multi-row upsert per table plus one
 *   delete (handleBatch; handle() is a batch of one);
 * - in replay, in memory from position 0, its rows then copied into the shadow tables (fold()).
 * Both write the same values, so a rebuilt table is byte-identical to the live one.
 */

/** A read model's tables, by the name its evolve uses. */
export type Tables = Record<string, TableDeclaration>;

/** The rows of each table, as evolve sees them. */
export type RowsOf<T extends Tables> = {
  [K in keyof T]: T[K] extends TableDeclaration<infer C> ? RowTable<C> : never;
};

/**
 * What each event type does to the rows, given the event's data, the rows and the whole recorded event;
 * what it returns (anything but undefined) is the event's after-commit effect. Pure and synchronous: it
 * reads and writes only `rows`. Live, a row it reads may not be loaded yet: it then finds nothing, and
 * the batch is run again once the rows are loaded, so it must not act on the world.
 */
export type Evolve<E extends TypedEvent, T extends Tables, Effect> = {
  [K in E['type']]?: (data: EventData<E, K>, rows: RowsOf<T>, event: RecordedEvent) => Effect | void;
};

export interface ReadModelDefinition<E extends TypedEvent, T extends Tables, Effect> {
  /** Unique, stable name (checkpoint key, Kafka consumer group). */
  name: string;
  /** Schema of the service that owns its tables. */
  schema: string;
  /** Services whose event logs it reads. */
  sources: readonly string[];
  tables: T;
  evolve: Evolve<E, T, Effect>;
}

/** A read model: its declaration, and the means to run it live or in memory. */
export interface ReadModel<Effect = unknown> {
  readonly name: string;
  readonly schema: string;
  readonly sources: readonly string[];
  readonly eventTypes: readonly string[];
  /** Its tables, schema-qualified: what a replay rebuilds. */
  readonly tables: readonly string[];
  /** The replay's in-memory run: every event applied to rows held in memory, then the rows. */
  fold(): ReplayFold;
  /**
   * The live run of a batch of events (in log order, each one the consumer has not applied) in `tx`:
   * loads the rows they touch, evolves them, writes what changed. Answers each event's effect.
   */
  applyBatch(tx: PoolClient, events: readonly RecordedEvent[]): Promise<Array<Effect | undefined>>;
}

/** A read model's live consumer: handle() applies one event, handleBatch() several (one write per table). */
export interface ReadModelConsumer<Effect = unknown> extends EventConsumer<Effect> {
  readonly readModel: ReadModel<Effect>;
  handleBatch(events: readonly RecordedEvent[], tx: PoolClient): Promise<Array<Effect | undefined>>;
}

/** A column's type as the live loader casts it: how it is read, and as what it is written back. */
interface ColumnType {
  /** format_type(): the cast of a written value. */
  sqlType: string;
  /** Read as text (json keeps its text, a date its day), and for int8/numeric turned into a number. */
  read: 'native' | 'text' | 'number';
}

type Runner = (data: unknown, rows: Record<string, RowTable>, event: RecordedEvent) => unknown;

/** Declares a read model; `E` is the union of the events it reads, `{ type: 'X'; data: ... }` each (a function for a type not in `E` does not compile). */
export function defineReadModel<E extends TypedEvent, T extends Tables, Effect = unknown>(
  definition: ReadModelDefinition<E, T, Effect>,
): ReadModel<Effect> {
  const { name, schema, sources, tables } = definition;
  const handlers = handlersByType<[rows: Record<string, RowTable>, event: RecordedEvent], unknown>(
    definition.evolve,
  ) as ReadonlyMap<string, Runner>;
  const entries = Object.entries(tables);
  const rowTables = (mode: 'memory' | 'live') =>
    Object.fromEntries(entries.map(([k, t]) => [k, new RowTable(t, mode)])) as Record<string, RowTable>;
  const run = (rows: Record<string, RowTable>, event: RecordedEvent): Effect | undefined => {
    const h = handlers.get(event.type);
    const r = h ? h(event.data, rows, event) : undefined;
    return r === undefined ? undefined : (r as Effect);
  };
  const types = new Map<string, Map<string, ColumnType>>();

  /** The live columns' types (once per table): the loader's casts and the writer's. */
  async function columnTypes(tx: PoolClient, t: TableDeclaration): Promise<Map<string, ColumnType>> {
    let m = types.get(t.table);
    if (m) return m;
    const { rows } = await tx.query<{ name: string; type: string; typname: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, ty.typname
         FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid
        WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
      [t.table],
    );
    m = new Map();
    for (const r of rows) {
      const read = ['json', 'jsonb', 'date'].includes(r.typname)
        ? 'text'
        : ['int8', 'numeric'].includes(r.typname)
          ? 'number'
          : 'native';
      m.set(r.name, { sqlType: r.type, read });
    }
    for (const c of t.columns) if (!m.has(c)) throw new Error(`${t.table} has no column ${c}`);
    types.set(t.table, m);
    return m;
  }

  /**
   * Loads the groups (first key column values) of a table that the last attempt missed, and the rows of
   * the lookup values it missed.
   */
  async function load(tx: PoolClient, rows: RowTable): Promise<void> {
    const t = rows.declaration;
    const ct = await columnTypes(tx, t);
    const groups = [...rows.misses];
    const lookups = [...rows.lookupMisses];
    const select = t.columns
      .map((c) => (ct.get(c)!.read === 'native' ? `"${c}"` : `"${c}"::text AS "${c}"`))
      .join(', ');
    const first = t.key[0]!;
    const { rows: found } = await tx.query<Record<string, unknown>>(
      `SELECT ${select} FROM ${t.table} WHERE "${first}" = ANY($1::text[]::${ct.get(first)!.sqlType}[])${
        !t.lookup
          ? ''
          : t.lookup.lower
            ? ` OR lower("${t.lookup.column}") = ANY($2::text[])`
            : ` OR "${t.lookup.column}" = ANY($2::text[]::${ct.get(t.lookup.column)!.sqlType}[])`
      }`,
      t.lookup ? [groups, lookups] : [groups],
    );
    for (const row of found)
      for (const c of t.columns)
        if (ct.get(c)!.read === 'number' && row[c] !== null) {
          const n = Number(row[c]);
          if (Number.isSafeInteger(n) && String(n) === row[c]) row[c] = n;
        }
    rows.load(groups, found, lookups);
  }

  /** Writes a table's changes: one DELETE of the rows deleted, one upsert of the rows written. */
  async function write(tx: PoolClient, rows: RowTable): Promise<void> {
    const t = rows.declaration;
    const { deleted, written } = rows.changes();
    if (!deleted.length && !written.length) return;
    const ct = await columnTypes(tx, t);
    const cast = (c: string, from: string) => `${from}::${ct.get(c)!.sqlType}`;
    if (deleted.length) {
      const params = t.key.map((_, i) => deleted.map((k) => copyText(k[i])));
      await tx.query(
        `DELETE FROM ${t.table} t USING unnest(${t.key.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${t.key.map((c) => `"${c}"`).join(', ')})
          WHERE ${t.key.map((c) => `t."${c}" = ${cast(c, `u."${c}"`)}`).join(' AND ')}`,
        params,
      );
    }
    if (written.length) {
      const columns = t.columns.map((c) => `"${c}"`).join(', ');
      const others = t.columns.filter((c) => !t.key.includes(c));
      const params = t.columns.map((c) => written.map((row) => copyText(row[c])));
      await tx.query(
        `INSERT INTO ${t.table} (${columns})
         SELECT ${t.columns.map((c) => cast(c, `u."${c}"`)).join(', ')}
           FROM unnest(${t.columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${columns})
         ON CONFLICT (${t.key.map((c) => `"${c}"`).join(', ')}) DO ${
           others.length ? `UPDATE SET ${others.map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ')}` : 'NOTHING'
         }`,
        params,
      );
    }
  }

  return {
    name,
    schema,
    sources,
    eventTypes: [...handlers.keys()],
    tables: entries.map(([, t]) => t.table),
    fold() {
      const rows = rowTables('memory');
      return {
        apply: (event) => void run(rows, event),
        tables: (): FoldedTable[] =>
          Object.values(rows).map((r) => ({ table: r.table, columns: r.declaration.columns, rows: r.values() })),
      };
    },
    async applyBatch(tx, events) {
      const rows = rowTables('live');
      const all = Object.values(rows);
      // Runs the batch on what is loaded; whatever it read that was not loaded is loaded (one SELECT per
      // table) and the batch runs again from the start, until it read nothing new.
      for (;;) {
        let effects: Array<Effect | undefined> = [];
        let failure: unknown;
        try {
          effects = events.map((e) => run(rows, e));
        } catch (err) {
          failure = err;
        }
        const missed = all.filter((r) => r.misses.size > 0 || r.lookupMisses.size > 0);
        if (missed.length === 0) {
          if (failure !== undefined) throw failure;
          for (const r of all) await write(tx, r);
          return effects;
        }
        for (const r of missed) await load(tx, r);
        for (const r of all) r.reset();
      }
    },
  };
}

/**
 * A read model's live consumer on the bus (applyEvent's dedupe and parking apply as to any consumer), with
 * its after-commit.
 */
export function readModelConsumer<Effect>(
  readModel: ReadModel<Effect>,
  afterCommit?: (effects: Effect[]) => void | Promise<void>,
): ReadModelConsumer<Effect> {
  return {
    name: readModel.name,
    schema: readModel.schema,
    sources: readModel.sources,
    eventTypes: readModel.eventTypes,
    readModel,
    async handle(event, tx) {
      const [effect] = await readModel.applyBatch(tx, [event]);
      return effect;
    },
    handleBatch: (events, tx) => readModel.applyBatch(tx, events),
    ...(afterCommit ? { afterCommit } : {}),
  };
}

/**
 * A projection as its service registers it (its package index exports `readModels`): what `npm run replay`
 * rebuilds: a read model, or (any other projection) its name and tables, replayed through its consumer's
 * handle().
 */
export type ProjectionRegistration = Pick<ReadModel, 'name' | 'tables'> & { fold?: () => ReplayFold };
