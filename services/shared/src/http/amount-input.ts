import { z } from 'zod';
import { hasAtMostTwoDecimals, rupeesToPaise } from '../money/money.ts';

/**
 * A number with at most 2 decimals (rupees, or a percentage) from JSON or a form field, read as an integer
 * count of hundredths: paise for rupees, hundredths of a percent for a percentage. Blank text is missing.
 * `round`: accept more decimals and round to the nearest hundredth (totals the browser computed itself).
 */
export function hundredthsInput(label: string, opts: { round?: boolean; max?: number } = {}) {
  const max = opts.max ?? 1_000_000_000;
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
    .refine((n) => opts.round === true || hasAtMostTwoDecimals(n), `${label} can have at most 2 decimals`)
    .transform(rupeesToPaise);
}

/** true/false from JSON, or 'true'/'false' from a form field. */
export function booleanInput(label: string) {
  return z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: `${label} must be true or false` }),
  );
}
