import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ConflictError } from '../errors/errors.ts';
import type { AppendResult, DomainEvent, EventMetadata, ExpectedVersion, RecordedEvent, Upcaster } from './types.ts';

/** Raised when a stream is not at the expected version (someone else appended first). Retriable. */
export class StreamVersionConflictError extends ConflictError {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${String(expected)}`, { streamId, expected, actual });
  }
}

export interface AppendOptions {
  metadata?: Partial<EventMetadata>;
  /** Event ids, if the caller needs them fixed (e.g. derived from a command id for idempotency). */
  eventIds?: string[];
  /** Run inside this transaction instead of opening one (the caller commits). */
  tx?: pg.PoolClient;
}

/** A row of a service's events table. */
export interface EventRow {
  global_position: bigint;
  transaction_id: bigint;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/** The events table's columns, in EventRow's shape. */
export const EVENT_COLUMNS =
  'global_position, transaction_id, stream_id, stream_version, event_id, type, schema_version, data, metadata';
const SCHEMA_NAME = /^[a-z][a-z0-9_]*$/;
/** What an append reads back: what Postgres assigned (the rest is what was sent). */
const INSERTED_COLUMNS = 'global_position, transaction_id, stream_id, stream_version, event_id';
type InsertedRow = Pick<EventRow, 'global_position' | 'transaction_id' | 'stream_id' | 'stream_version' | 'event_id'>;
interface RowIn {
  streamId: string;
  version: number;
  id: string;
  type: string;
  schemaVersion: number;
  data: string;
  metadata: string;
}

/** An insert's per-event arrays, as both appends unnest them: ids, types, schema versions, data, metadata. */
const eventParams = (rows: RowIn[]) => [
  rows.map((r) => r.id),
  rows.map((r) => r.type),
  rows.map((r) => r.schemaVersion),
  rows.map((r) => r.data),
  rows.map((r) => r.metadata),
];

/** A unique violation of (stream_id, stream_version): someone else appended that version first. */
const isStreamVersionViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' && String((err as { constraint?: string }).constraint).includes('stream');

/**
 * A service's append-only event log in Postgres (schema per service). Appends are optimistic-concurrency
 * checked by the unique (stream_id, stream_version) constraint and write their outbox rows in the same
 * transaction. Reads pass events through registered upcasters.
 */
export class PostgresEventStore {
  private readonly upcasters = new Map<string, Upcaster>();
  /** Current schema version written for each event type (default 1). */
  private readonly currentVersions = new Map<string, number>();
  private readonly listeners = new Set<(events: RecordedEvent[]) => void>();

  constructor(
    readonly pool: pg.Pool,
    readonly schema: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`Bad schema name ${schema}`);
  }

  /** Declares that `type` is now written at `version`; `upcast` lifts any older stored version to it. */
  registerSchemaVersion(type: string, version: number, upcast?: Upcaster): void {
    this.currentVersions.set(type, version);
    if (upcast) this.upcasters.set(type, upcast);
  }

  /** Called after each committed append in this process (used to wake subscriptions without polling delay). */
  onAppended(listener: (events: RecordedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends events to a stream if it is at expectedVersion; throws StreamVersionConflictError otherwise.
   * One statement (the version check, the events and their outbox rows), so without a caller's transaction
   * it is one round trip in its own implicit transaction.
   */
  async append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: DomainEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expected = expectedVersion === 'any' ? null : expectedVersion === 'no_stream' ? 0 : expectedVersion;
    const rows = this.rowsOf([{ streamId, events, metadata: options.metadata }], options.eventIds);
    const db = options.tx ?? this.pool;
    let inserted: InsertedRow[];
    try {
      inserted = (
        await db.query<InsertedRow>(
          `WITH cur AS (SELECT coalesce(max(stream_version), 0) AS v FROM ${this.schema}.events WHERE stream_id = $1),
           ins AS (
             INSERT INTO ${this.schema}.events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
             SELECT $1, cur.v + u.n, u.id, u.t, u.sv, u.d, u.m
               FROM cur, unnest($3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY AS u(id, t, sv, d, m, n)
              WHERE $2::int IS NULL OR cur.v = $2::int
             RETURNING ${INSERTED_COLUMNS}, type),
           ob AS (INSERT INTO ${this.schema}.outbox (global_position, stream_id, event_id, type)
                  SELECT global_position, stream_id, event_id, type FROM ins)
           SELECT ${INSERTED_COLUMNS} FROM ins ORDER BY stream_version`,
          [streamId, expected, ...eventParams(rows)],
        )
      ).rows;
    } catch (err) {
      // A concurrent append took the same version between our read and insert.
      if (isStreamVersionViolation(err))
        throw new StreamVersionConflictError(streamId, expectedVersion, await this.currentVersion(db, streamId));
      throw err;
    }
    if (inserted.length === 0)
      throw new StreamVersionConflictError(streamId, expectedVersion, await this.currentVersion(db, streamId));
    const recorded = this.recordedOf(rows, inserted);
    // With a caller-owned transaction the caller notifies after commit (see notifyAppended).
    if (!options.tx) this.notifyAppended(recorded);
    return {
      nextExpectedVersion: recorded[recorded.length - 1]!.streamVersion,
      lastGlobalPosition: recorded[recorded.length - 1]!.globalPosition,
      events: recorded,
    };
  }

  /**
   * Starts several new streams in one statement (group commit): all their events and outbox rows at once.
   * All or nothing: if any stream already exists, nothing is written and StreamVersionConflictError names it.
   */
  async appendToNewStreams(
    items: ReadonlyArray<{ streamId: string; events: DomainEvent[]; metadata?: Partial<EventMetadata> }>,
  ): Promise<AppendResult[]> {
    if (items.length === 0) return [];
    for (const item of items) if (item.events.length === 0) throw new Error('append needs at least one event');
    const rows = this.rowsOf(items);
    let inserted: InsertedRow[];
    try {
      inserted = (
        await this.pool.query<InsertedRow>(
          `WITH ins AS (
             INSERT INTO ${this.schema}.events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
             SELECT s, v, id, t, sv, d, m
               FROM unnest($1::text[], $2::int[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) AS u(s, v, id, t, sv, d, m)
             RETURNING ${INSERTED_COLUMNS}, type),
           ob AS (INSERT INTO ${this.schema}.outbox (global_position, stream_id, event_id, type)
                  SELECT global_position, stream_id, event_id, type FROM ins)
           SELECT ${INSERTED_COLUMNS} FROM ins`,
          [rows.map((r) => r.streamId), rows.map((r) => r.version), ...eventParams(rows)],
        )
      ).rows;
    } catch (err) {
      if (isStreamVersionViolation(err)) {
        const detail = (err as { detail?: string }).detail ?? '';
        const streamId = /\(stream_id, stream_version\)=\((.*), \d+\)/.exec(detail)?.[1] ?? items[0]!.streamId;
        throw new StreamVersionConflictError(streamId, 'no_stream', -1);
      }
      throw err;
    }
    const recorded = this.recordedOf(rows, inserted);
    this.notifyAppended(recorded);
    return items.map((item) => {
      const own = recorded.filter((e) => e.streamId === item.streamId);
      return {
        nextExpectedVersion: own.length,
        lastGlobalPosition: own[own.length - 1]!.globalPosition,
        events: own,
      };
    });
  }

  /** The rows to insert for these appends: versions 1.. per stream (append offsets them in SQL). */
  private rowsOf(
    items: ReadonlyArray<{ streamId: string; events: DomainEvent[]; metadata?: Partial<EventMetadata> }>,
    eventIds?: string[],
  ): RowIn[] {
    const occurredAt = this.now().toISOString();
    return items.flatMap((item) => {
      const metadata = JSON.stringify({ occurredAt, ...item.metadata });
      return item.events.map((e, i) => ({
        streamId: item.streamId,
        version: i + 1,
        id: eventIds?.[i] ?? randomUUID(),
        type: e.type,
        schemaVersion: this.currentVersions.get(e.type) ?? 1,
        data: JSON.stringify(e.data),
        metadata,
      }));
    });
  }

  /** The recorded events of an insert: what was sent (as stored: through JSON) and what Postgres assigned. */
  private recordedOf(rows: RowIn[], inserted: InsertedRow[]): RecordedEvent[] {
    const byId = new Map(rows.map((r) => [r.id, r]));
    return inserted.map((ins) => {
      const r = byId.get(ins.event_id)!;
      return {
        globalPosition: ins.global_position,
        transactionId: ins.transaction_id,
        streamId: ins.stream_id,
        streamVersion: ins.stream_version,
        eventId: ins.event_id,
        type: r.type,
        schemaVersion: r.schemaVersion,
        data: JSON.parse(r.data) as object,
        metadata: JSON.parse(r.metadata) as EventMetadata,
        source: this.schema,
      };
    });
  }

  private async currentVersion(db: pg.Pool | pg.PoolClient, streamId: string): Promise<number> {
    try {
      const { rows } = await db.query<{ v: number | null }>(
        `SELECT max(stream_version) AS v FROM ${this.schema}.events WHERE stream_id = $1`,
        [streamId],
      );
      return rows[0]?.v ?? 0;
    } catch {
      return -1; // e.g. the caller's transaction is aborted by the failed insert
    }
  }

  /** Tells in-process listeners that these events are committed. */
  notifyAppended(events: RecordedEvent[]): void {
    for (const l of this.listeners) {
      try {
        l(events);
      } catch {
        // a listener's failure must not fail the append that already committed
      }
    }
  }

  /** Reads one stream in version order, from version `fromVersion` (inclusive, default 1). */
  async readStream(
    streamId: string,
    fromVersion = 1,
    client: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<RecordedEvent[]> {
    const { rows } = await client.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, fromVersion],
    );
    return rows.map((r) => this.fromRow(r));
  }

  /**
   * Reads the log after (transactionId, globalPosition), in commit-safe order: only events whose
   * transaction is older than every transaction still in flight, so a reader never skips an event that a
   * slower transaction commits later with a lower position.
   */
  async readAll(
    after: { transactionId: bigint; globalPosition: bigint } = { transactionId: 0n, globalPosition: 0n },
    limit = 1000,
    client: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<RecordedEvent[]> {
    const { rows } = await client.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id, global_position
        LIMIT $3`,
      [after.transactionId.toString(), after.globalPosition.toString(), limit],
    );
    return rows.map((r) => this.fromRow(r));
  }

  /** Folds a stream with a decider's evolve; returns the state and the stream's version. */
  async aggregate<State, E extends DomainEvent>(
    streamId: string,
    evolve: (s: State, e: E) => State,
    initial: State,
    client?: pg.Pool | pg.PoolClient,
  ): Promise<{ state: State; version: number }> {
    const events = await this.readStream(streamId, 1, client);
    let state = initial;
    for (const e of events) state = evolve(state, { type: e.type, data: e.data } as E);
    return { state, version: events.length ? events[events.length - 1]!.streamVersion : 0 };
  }

  /** A stored row as a recorded event, upcast to its type's current schema version. */
  fromRow(r: EventRow): RecordedEvent {
    let { type, schema_version: schemaVersion, data } = r as { type: string; schema_version: number; data: unknown };
    const target = this.currentVersions.get(type) ?? 1;
    const up = this.upcasters.get(type);
    if (up && schemaVersion < target) ({ type, schemaVersion, data } = up({ type, schemaVersion, data }));
    return {
      globalPosition: r.global_position,
      transactionId: r.transaction_id,
      streamId: r.stream_id,
      streamVersion: r.stream_version,
      eventId: r.event_id,
      type,
      schemaVersion,
      data: data as object,
      metadata: r.metadata,
      source: this.schema,
    };
  }
}
