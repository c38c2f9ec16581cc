import type { z } from 'zod';
import { ValidationError } from '../errors/errors.ts';

/** Parses input with a zod schema; a failure becomes a 400 whose message names each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.infer<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  // Our own messages are written for users ('Password must be at least 6 characters'); zod's generic
  // ones ('Invalid input: expected number') need the field name to make sense.
  const generic = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;
  const parts = r.error.issues.map((i) =>
    i.path.length && generic.test(i.message) ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
  throw new ValidationError(
    message ?? parts.join('; '),
    r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  );
}
