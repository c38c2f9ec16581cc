// Age and birthday from a date of birth. Dates are calendar days (no time zone): the date of birth as the
// API stores it ('YYYY-MM-DD', possibly with a time part) and today as the user's own calendar shows it.

export type CalendarDate = { year: number; month: number; day: number };

/** Reads 'YYYY-MM-DD' (a time part after it is ignored); null when absent or not a real day. */
export function parseCalendarDate(value: string | null | undefined): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value?.trim() ?? '');
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** The local calendar day of `now`. */
export function calendarDateOf(now: Date): CalendarDate {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** 'YYYY-MM-DD' of a calendar day (the value of a date input). */
export function formatCalendarDate(date: CalendarDate): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

function compare(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** True when the date of birth is after today. */
export function isInFuture(dob: CalendarDate, today: CalendarDate): boolean {
  return compare(dob, today) > 0;
}

/**
 * Whole years from the date of birth to today; null without a date of birth or when it is in the future.
 * A year is complete once today's month and day reach the birth month and day, so someone born on
 * 29 February turns a year older on 1 March in years without a 29 February.
 */
export function ageOn(dob: CalendarDate | null, today: CalendarDate): number | null {
  if (!dob || isInFuture(dob, today)) return null;
  const beforeBirthday = today.month < dob.month || (today.month === dob.month && today.day < dob.day);
  return today.year - dob.year - (beforeBirthday ? 1 : 0);
}

/** The seed's rule: it is the user's birthday when today's day and month match the date of birth's. */
export function isBirthdayOn(dob: CalendarDate | null, today: CalendarDate): boolean {
  return dob !== null && !isInFuture(dob, today) && dob.month === today.month && dob.day === today.day;
}

/** The greeting shown on the user's birthday, or null on any other day. */
export function birthdayGreeting(name: string, dob: CalendarDate | null, today: CalendarDate): string | null {
  if (!isBirthdayOn(dob, today)) return null;
  const firstName = name.trim().split(/\s+/)[0];
  return firstName ? `Happy Birthday, ${firstName}!` : 'Happy Birthday!';
}
