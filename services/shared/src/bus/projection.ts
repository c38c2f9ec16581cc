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
 * The handler of an event's type, or undefined for a type not handled (the bus never offers one: the types
 * handled are the consumer's `eventTypes`).
 */
export function handlerOf<H extends object>(handlers: H, type: string): H[keyof H] | undefined {
  return Object.hasOwn(handlers, type) ? handlers[type as keyof H] : undefined;
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
  return {
    name,
    schema,
    sources,
    eventTypes: Object.keys(on),
    async handle(event, tx) {
      const handler = handlerOf(on, event.type) as
        ((data: unknown, tx: PoolClient, event: RecordedEvent) => Promise<Effect | void>) | undefined;
      return handler?.(event.data, tx, event);
    },
    ...(afterCommit ? { afterCommit } : {}),
  };
}

/**
 * A partial update from changed fields: of `changes`, the fields `columns` maps (field → column), in their
 * order: their columns, their values, and `column = $n` for each, numbered from `firstParameter`.
 */
export function changedColumns(
  changes: object,
  columns: Readonly<Record<string, string>>,
  firstParameter = 1,
): { columns: string[]; values: unknown[]; sets: string[] } {
  const entries = Object.entries(changes).filter(([k]) => k in columns);
  const changed = entries.map(([k]) => columns[k]!);
  return {
    columns: changed,
    values: entries.map(([, v]) => v as unknown),
    sets: changed.map((c, i) => `${c} = $${i + firstParameter}`),
  };
}
