import { z } from 'zod';
import type { EventMetadata, RecordedEvent } from '../eventstore/types.ts';

const bigintText = z.string().regex(/^\d+$/, 'a non-negative integer as a decimal string');

/** A RecordedEvent as JSON carries it (Kafka message values, parked_events.event): bigints as strings. */
const wireEventSchema = z.object({
  globalPosition: bigintText,
  transactionId: bigintText,
  streamId: z.string().min(1),
  streamVersion: z.number().int().positive(),
  eventId: z.guid(),
  type: z.string().min(1),
  schemaVersion: z.number().int().positive(),
  data: z.custom<object>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'a JSON object'),
  metadata: z.looseObject({ occurredAt: z.string() }),
  source: z.string().min(1),
});

export type WireEvent = z.infer<typeof wireEventSchema>;

/** Raised for bytes that are not a recorded event; retrying cannot help. */
export class EventDecodeError extends Error {
  readonly retriable = false;
}

/** A RecordedEvent as a JSON-safe object. */
export function toWire(event: RecordedEvent): WireEvent {
  return {
    globalPosition: event.globalPosition.toString(),
    transactionId: event.transactionId.toString(),
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    eventId: event.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    source: event.source,
  };
}

/** Checks a JSON value and turns it back into a RecordedEvent; throws EventDecodeError if it is not one. */
export function fromWire(value: unknown): RecordedEvent {
  const parsed = wireEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new EventDecodeError(
      `Not a recorded event: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  const w = parsed.data;
  return {
    ...w,
    globalPosition: BigInt(w.globalPosition),
    transactionId: BigInt(w.transactionId),
    metadata: w.metadata as EventMetadata,
  };
}

/** Serializes a RecordedEvent to JSON text (bigints as decimal strings). */
export function encodeEvent(event: RecordedEvent): string {
  return JSON.stringify(toWire(event));
}

/** Parses JSON text or bytes made by encodeEvent. */
export function decodeEvent(bytes: string | Buffer): RecordedEvent {
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch (err) {
    throw new EventDecodeError(`Not JSON: ${(err as Error).message}`);
  }
  return fromWire(value);
}
