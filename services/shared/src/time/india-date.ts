/**
 * Time as India counts it. India Standard Time is UTC+05:30 all year (no daylight saving since 1945), so a
 * fixed offset gives the same days as the Asia/Kolkata zone without relying on a time-zone database in Node,
 * Postgres or the browser. The one definition of the offset (the web app imports it too).
 */
export const INDIA_UTC_OFFSET = '+05:30';
export const INDIA_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day ('YYYY-MM-DD') it is in India at `at` (a Date or an ISO string; RangeError if neither). */
export function indiaDate(at: Date | string): string {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`Not a time: ${String(at)}`);
  return new Date(ms + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The `count` India-time dates ending with today's (as of `now`), oldest first. */
export function lastIndiaDays(now: Date, count: number): string[] {
  const today = Date.parse(`${indiaDate(now)}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
