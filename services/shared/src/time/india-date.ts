/** India Standard Time is UTC+05:30 all year (no daylight saving), so a fixed offset gives India's day. */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/** The calendar day (YYYY-MM-DD) it is in India at `at`. */
export function indiaDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}
