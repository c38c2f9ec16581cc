import { z } from 'zod';

// The lenient field readers the features' zod schemas share: one definition of "text the server may
// leave out" and "a figure sent as a number or a numeric string" for every answer that has them.

/** Text the server may leave out (null or missing): ''. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** Text the server may leave out or send empty: null. */
export const textOrNull = z
  .string()
  .nullish()
  .transform((value) => value || null);

/** A finite number, also from a numeric string. */
export const finiteNumber = z.coerce.number().pipe(z.number().finite());

/** A figure (an amount, a count) that is 0 when it cannot be read. */
export const figureOrZero = finiteNumber.catch(0);
