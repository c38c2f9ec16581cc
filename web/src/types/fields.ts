import { z } from 'zod';
import { INDIAN_PHONE_MESSAGE, isIndianMobile } from '@shop/shared/contracts/indian-phone';

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

/**
 * What is wrong with a phone number as typed, or null: required unless `blankAllowed`, then an Indian mobile
 * number (the services' rule, contracts/indian-phone: 10 digits from 6 to 9, +91 / 91 / 0 before, spaces and
 * dashes allowed).
 */
export function phoneProblem(value: string, { blankAllowed = false } = {}): string | null {
  if (!value.trim()) return blankAllowed ? null : 'Phone is required';
  return isIndianMobile(value) ? null : INDIAN_PHONE_MESSAGE;
}
