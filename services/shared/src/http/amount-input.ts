import { z } from 'zod';
import { hasAtMostTwoDecimals, rupeesToPaise } from '../money/money.ts';

/** The largest amount in rupees (or percentage) the API takes unless a field says otherwise. */
export const MAX_RUPEES = 1_000_000_000;

/**
 * A rupee amount (or percentage) from JSON or a form field, checked and still in rupees (the caller converts:
 * rupeesToPaise): at least 0, at most `max`, at most 2 decimals (1.005 is refused, never rounded to a paisa
 * nobody typed) unless `round`. Blank text is missing.
 */
export function rupeesInput(label: string, opts: { round?: boolean; max?: number } = {}) {
  const max = opts.max ?? MAX_RUPEES;
  return z
    .preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
      z
        .number({
          error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
        })
        .min(0, `${label} must be at least 0`)
        .max(max, `${label} must be at most ${max}`),
    )
    .refine((n) => opts.round === true || hasAtMostTwoDecimals(n), `${label} can have at most 2 decimals`);
}

/**
 * A number with at most 2 decimals (rupees, or a percentage) from JSON or a form field, read as an integer
 * count of hundredths: paise for rupees, hundredths of a percent for a percentage. Blank text is missing.
 * `round`: accept more decimals and round to the nearest hundredth (totals the browser computed itself).
 */
export function hundredthsInput(label: string, opts: { round?: boolean; max?: number } = {}) {
  return rupeesInput(label, opts).transform(rupeesToPaise);
}

/** true/false from JSON, or 'true'/'false' from a form field. */
export function booleanInput(label: string) {
  return z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: `${label} must be true or false` }),
  );
}
