/** Money is kept in paise (integers) everywhere; rupees appear only at the HTTP edge, as the seeds' clients expect. */

/** Paise to rupees (the API's numbers). */
export const paiseToRupees = (paise: number | bigint): number => Number(paise) / 100;

/** Rupees (a number with at most 2 decimals) to paise. */
export const rupeesToPaise = (rupees: number): number => Math.round(rupees * 100);

/** Whether a rupee amount (or percentage) has at most 2 decimals. */
export const hasAtMostTwoDecimals = (n: number): boolean => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
