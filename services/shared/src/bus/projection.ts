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
 * The handlers by event type, for dispatch: the object's own keys that hold a function (an event type named
 * like an Object.prototype member finds none). Its keys are the types handled.
 */
export function handlersByType<Args extends unknown[], Result>(
  handlers: object,
): ReadonlyMap<string, (data: unknown, ...args: Args) => Result> {
  const entries = Object.entries(handlers).filter(([, handler]) => typeof handler === 'function');
  return new Map(entries as Array<[string, (data: unknown, ...args: Args) => Result]>);
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
