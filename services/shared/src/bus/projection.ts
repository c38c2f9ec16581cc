import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../eventstore/types.ts';
import type { EventConsumer } from './types.ts';

/** An event as a read model sees it: its type and its data. */
export interface TypedEvent {
  type: string;
  data: unknown;
}

/** The data of the events of `E` of type `T`. */
export type EventData<E extends TypedEvent, T extends E['type']> = Extract<E, { type: T }>['data'];

/**
 * Events of these types whose data the handlers check themselves (a zod parse: another service's events,
 * relied on only for the fields used): each handler gets its event's data as `unknown`.
 */
export type UncheckedEvents<T extends string> = { [K in T]: { type: K; data: unknown } }[T];

/**
 * One handler per event type handled, keyed by type, each given its event's data, typed: what a projection
 * or a replay fold declares instead of a switch over `event.type`.
 */
export type EventHandlers<E extends TypedEvent, Args extends unknown[], Result> = {
  [T in E['type']]?: (data: EventData<E, T>, ...args: Args) => Result;
};

/**
 * The handlers by event type, for dispatch: the object's own keys that hold a function (an event type named
 * like an Object.prototype member finds none). Its keys are the types handled.
 */
export function handlersByType<Args extends unknown[], Result>(
  handlers: object,
): ReadonlyMap<string, (data: unknown, ...args: Args) => Result> {
  const entries = Object.entries(handlers).filter(([, handler]) => typeof handler === 'function');
  return new Map(entries as Array<[string, (data: unknown, ...args: Args) => Result]>);
}

/** A projection as declared: the EventConsumer's identity, one handler per event type, and its after-commit. */
export interface ProjectionDefinition<E extends TypedEvent, Effect> {
  /** Unique, stable name (checkpoint key, Kafka consumer group). */
  name: string;
  /** Schema of the service that owns its tables. */
  schema: string;
  /** Services whose event logs it reads. */
  sources: readonly string[];
  /**
   * What each event type does, inside the bus's transaction `tx` (writes only through it, deterministic),
   * given the event's data, `tx` and the whole recorded event (stream id and version, position). What a
   * handler returns (anything but undefined) is the event's after-commit effect. The keys are the
   * projection's `eventTypes`.
   */
  on: EventHandlers<E, [tx: PoolClient, event: RecordedEvent], Promise<Effect | void>>;
  /** Carries out the effects of one committed transaction's events (EventConsumer.afterCommit). */
  afterCommit?: (effects: Effect[]) => void | Promise<void>;
}

/**
 * Declares a projection (or any consumer that only writes through its transaction) as an EventConsumer:
 * `eventTypes` are the keys of `on`, and handle() gives each event's data, typed by its type, to the
 * handler of that type. `E` is the union of the events it reads (`{ type: 'X'; data: ... }` each); a
 * handler for a type not in `E` does not compile.
 */
export function defineProjection<E extends TypedEvent, Effect = unknown>(
  definition: ProjectionDefinition<E, Effect>,
): EventConsumer<Effect> {
  const { name, schema, sources, on, afterCommit } = definition;
  const handlers = handlersByType<[tx: PoolClient, event: RecordedEvent], Promise<Effect | void>>(on);
  return {
    name,
    schema,
    sources,
    eventTypes: [...handlers.keys()],
    async handle(event, tx) {
      return handlers.get(event.type)?.(event.data, tx, event);
    },
    ...(afterCommit ? { afterCommit } : {}),
  };
}

/**
 * Of `changes`, the fields `columns` maps (field → column), in their order: their columns and their values
 * (what a details-changed event sets).
 */
export function changedColumns(
  changes: object,
  columns: Readonly<Record<string, string>>,
): { columns: string[]; values: unknown[] } {
  const entries = Object.entries(changes).filter(([k]) => k in columns);
  return { columns: entries.map(([k]) => columns[k]!), values: entries.map(([, v]) => v as unknown) };
}

/**
 * The partial update of a details-changed event on `table` (schema-qualified, with `id` and `updated_at`
 * columns), for the fields `columns` maps (field → column): `(tx, id, at, changes)` runs
 * `UPDATE <table> SET <column> = <value>, ..., updated_at = <at> WHERE id = <id>` for the fields of `changes`
 * it maps (others are left alone). When it maps none of them, updated_at alone is set, or with
 * `skipWhenUnchanged` nothing is written.
 */
export function changedDetailsUpdate(
  table: string,
  columns: Readonly<Record<string, string>>,
  options: { skipWhenUnchanged?: boolean } = {},
): (tx: PoolClient, id: string, at: string, changes: object) => Promise<void> {
  return async (tx, id, at, changes) => {
    const changed = changedColumns(changes, columns);
    if (changed.columns.length === 0 && options.skipWhenUnchanged) return;
    const sets = changed.columns.map((c, i) => `${c} = $${i + 3}`);
    await tx.query(`UPDATE ${table} SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, [
      id,
      at,
      ...changed.values,
    ]);
  };
}
