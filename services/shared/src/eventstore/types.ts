/** An event as a decider produces it: a fact in the past tense with its data. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actor?: string;
  occurredAt: string; // ISO-8601
  [key: string]: unknown;
}

/** An event as stored in (and read back from) a service's event log. */
export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  globalPosition: bigint;
  /** Postgres transaction id (xid8) the event was committed in; with globalPosition it orders the log safely. */
  transactionId: bigint;
  streamId: string;
  streamVersion: number;
  eventId: string;
  type: E['type'];
  schemaVersion: number;
  data: E['data'];
  metadata: EventMetadata;
  /** Schema (service) the event was written by, e.g. 'catalog'. */
  source: string;
}

/** Expected version for append: a number (stream must be at exactly that version, 0 = new), or 'any'. */
export type ExpectedVersion = number | 'any' | 'no_stream';

export interface AppendResult {
  nextExpectedVersion: number;
  lastGlobalPosition: bigint;
  events: RecordedEvent[];
}

/** A pure decider (ARCHITECTURE.md): decide(command, state) -> events; evolve(state, event) -> state. */
export interface Decider<Command, State, Event extends DomainEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** Turns an old schema version of an event type into the current one on read. */
export type Upcaster = (event: { type: string; schemaVersion: number; data: unknown }) => {
  type: string;
  schemaVersion: number;
  data: unknown;
};
