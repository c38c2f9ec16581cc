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

  /** Appends events to a stream if it is at expectedVersion; throws StreamVersionConflictError otherwise. */
  async append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: DomainEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const run = async (tx: pg.PoolClient): Promise<AppendResult> => {
      const current = await this.streamVersion(tx, streamId);
      if (expectedVersion === 'no_stream' ? current !== 0 : expectedVersion !== 'any' && current !== expectedVersion) {
        throw new StreamVersionConflictError(streamId, expectedVersion, current);
      }
      const metadata: EventMetadata = { occurredAt: this.now().toISOString(), ...options.metadata };
      const ids = events.map((_, i) => options.eventIds?.[i] ?? randomUUID());
      const versions = events.map((_, i) => current + i + 1);
      let rows: EventRow[];
      try {
        const res = await tx.query<EventRow>(
          `INSERT INTO ${this.schema}.events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
           SELECT $1, v, id, t, sv, d, $7::jsonb
             FROM unnest($2::int[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[]) AS u(v, id, t, sv, d)
           RETURNING ${EVENT_COLUMNS}`,
          [
            streamId,
            versions,
            ids,
            events.map((e) => e.type),
            events.map((e) => this.currentVersions.get(e.type) ?? 1),
            events.map((e) => JSON.stringify(e.data)),
            JSON.stringify(metadata),
          ],
        );
        rows = res.rows;
      } catch (err) {
        // A concurrent append took the same version between our read and insert.
        if (
          (err as { code?: string }).code === '23505' &&
          String((err as { constraint?: string }).constraint).includes('stream')
        ) {
          throw new StreamVersionConflictError(
            streamId,
            expectedVersion,
            await this.streamVersion(tx, streamId).catch(() => -1),
          );
        }
        throw err;
      }
      await tx.query(
        `INSERT INTO ${this.schema}.outbox (global_position, stream_id, event_id, type)
         SELECT p, $1, id, t FROM unnest($2::bigint[], $3::uuid[], $4::text[]) AS u(p, id, t)`,
        [streamId, rows.map((r) => r.global_position.toString()), rows.map((r) => r.event_id), rows.map((r) => r.type)],
      );
      const recorded = rows.map((r) => this.fromRow(r));
      return {
        nextExpectedVersion: versions[versions.length - 1]!,
        lastGlobalPosition: recorded[recorded.length - 1]!.globalPosition,
        events: recorded,
      };
    };

    let result: AppendResult;
    if (options.tx) {
      result = await run(options.tx);
    } else {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        result = await run(client);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    }
    // With a caller-owned transaction the caller notifies after commit (see notifyAppended).
    if (!options.tx) this.notifyAppended(result.events);
    return result;
  }

  /**
   * Starts several new streams in one transaction (group commit): one multi-row insert of all their events
   * and one of their outbox rows. All or nothing: if any stream already exists, nothing is written and
   * StreamVersionConflictError names it.
   */
  async appendToNewStreams(
    items: ReadonlyArray<{ streamId: string; events: DomainEvent[]; metadata?: Partial<EventMetadata> }>,
  ): Promise<AppendResult[]> {
    if (items.length === 0) return [];
    const occurredAt = this.now().toISOString();
    const rowsIn = items.flatMap((item) => {
      if (item.events.length === 0) throw new Error('append needs at least one event');
      const metadata = JSON.stringify({ occurredAt, ...item.metadata });
      return item.events.map((e, i) => ({
        streamId: item.streamId,
        version: i + 1,
        id: randomUUID(),
        type: e.type,
        schemaVersion: this.currentVersions.get(e.type) ?? 1,
        data: JSON.stringify(e.data),
        metadata,
      }));
    });
    const client = await this.pool.connect();
    let rows: EventRow[];
    try {
      await client.query('BEGIN');
      try {
        rows = (
          await client.query<EventRow>(
            `INSERT INTO ${this.schema}.events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
             SELECT s, v, id, t, sv, d, m FROM unnest($1::text[], $2::int[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[])
               AS u(s, v, id, t, sv, d, m)
             RETURNING ${EVENT_COLUMNS}`,
            [
              rowsIn.map((r) => r.streamId),
              rowsIn.map((r) => r.version),
              rowsIn.map((r) => r.id),
              rowsIn.map((r) => r.type),
              rowsIn.map((r) => r.schemaVersion),
              rowsIn.map((r) => r.data),
              rowsIn.map((r) => r.metadata),
            ],
          )
        ).rows;
      } catch (err) {
        const e = err as { code?: string; constraint?: string; detail?: string };
        if (e.code === '23505' && String(e.constraint).includes('stream')) {
          const streamId =
            /\(stream_id, stream_version\)=\((.*), \d+\)/.exec(e.detail ?? '')?.[1] ?? items[0]!.streamId;
          throw new StreamVersionConflictError(streamId, 'no_stream', -1);
        }
        throw err;
      }
      await client.query(
        `INSERT INTO ${this.schema}.outbox (global_position, stream_id, event_id, type)
         SELECT p, s, id, t FROM unnest($1::bigint[], $2::text[], $3::uuid[], $4::text[]) AS u(p, s, id, t)`,
        [
          rows.map((r) => r.global_position.toString()),
          rows.map((r) => r.stream_id),
          rows.map((r) => r.event_id),
          rows.map((r) => r.type),
        ],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    const recorded = rows.map((r) => this.fromRow(r));
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

  private async streamVersion(client: pg.PoolClient, streamId: string): Promise<number> {
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(stream_version) AS v FROM ${this.schema}.events WHERE stream_id = $1`,
      [streamId],
    );
    return rows[0]?.v ?? 0;
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
