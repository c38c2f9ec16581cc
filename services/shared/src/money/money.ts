/** Money is kept in paise (integers) everywhere; rupees appear only at the HTTP edge, as the seeds' clients expect. */

/** Paise to rupees (the API's numbers). */
export const paiseToRupees = (paise: number | bigint): number => Number(paise) / 100;

/** Rupees (a number with at most 2 decimals) to paise. */
export const rupeesToPaise = (rupees: number): number => Math.round(rupees * 100);

/** Whether a rupee amount (or percentage) has at most 2 decimals. */
export const hasAtMostTwoDecimals = (n: number): boolean => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

const twoDecimals = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const upToTwoDecimals = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

/**
 * An amount in rupees as the seeds show it: ₹ with Indian digit grouping and exactly 2 decimals, e.g.
 * ₹1,23,456.50. The one formatter of the web app and of e-mails (formatted only at the edge).
 */
export function formatRupees(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}₹${twoDecimals.format(Math.abs(amount))}`;
}

/** A number in Indian digit grouping (lakh, crore) with up to 2 decimals, e.g. 12,34,567.5. */
export function groupIndianDigits(value: number): string {
  return upToTwoDecimals.format(value);
}
