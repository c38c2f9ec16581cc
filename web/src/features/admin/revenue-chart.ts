import { groupIndianDigits } from '@/lib/money';

/** One day of the revenue chart. */
export type RevenueDay = { date: string; revenue: number; orders: number };

export type RevenueBar = RevenueDay & {
  /** Bar height as a share of the tallest day, 0..1 (all 0 when nothing sold). */
  share: number;
};

/** Bars scaled to the best day, so the chart always uses its full height. */
export function revenueBars(days: readonly RevenueDay[]): RevenueBar[] {
  const best = days.reduce((max, day) => Math.max(max, day.revenue), 0);
  return days.map((day) => ({ ...day, share: best > 0 ? Math.max(0, day.revenue) / best : 0 }));
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-11-05' as '5 Nov' (the date is already India's day; no time zone conversion). */
export function shortDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return isoDate;
  const month = months[Number(match[2]) - 1];
  return month ? `${Number(match[3])} ${month}` : isoDate;
}

/** Revenue as the dashboard shows it: ₹, Indian digit grouping, up to 2 decimals (₹12,34,567.5). */
export function formatRevenue(rupees: number): string {
  const sign = rupees < 0 ? '-' : '';
  return `${sign}₹${groupIndianDigits(Math.abs(rupees))}`;
}
