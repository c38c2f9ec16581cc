/**
 * Calendar days as India counts them. India Standard Time is UTC+5:30 all year (no daylight saving since
 * 1945), so a fixed offset gives the same days as the Asia/Kolkata zone without relying on a time-zone
 * database in Node or Postgres.
 */
const INDIA_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The India-time date ('YYYY-MM-DD') of an instant. */
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
