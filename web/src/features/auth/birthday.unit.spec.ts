import { describe, expect, it } from 'vitest';
import {
  ageOn,
  birthdayGreeting,
  calendarDateOf,
  formatCalendarDate,
  isBirthdayOn,
  isInFuture,
  parseCalendarDate,
  type CalendarDate,
} from './birthday';

const day = (value: string): CalendarDate => {
  const parsed = parseCalendarDate(value);
  if (!parsed) throw new Error(`bad date ${value}`);
  return parsed;
};

describe('reading a date of birth', () => {
  it('reads YYYY-MM-DD, ignoring a time part', () => {
    expect(parseCalendarDate('1995-06-15')).toEqual({ year: 1995, month: 6, day: 15 });
    expect(parseCalendarDate('1995-06-15T00:00:00.000Z')).toEqual({ year: 1995, month: 6, day: 15 });
  });

  it('refuses absent, malformed and impossible days', () => {
    expect(parseCalendarDate(null)).toBeNull();
    expect(parseCalendarDate('')).toBeNull();
    expect(parseCalendarDate('15/06/1995')).toBeNull();
    expect(parseCalendarDate('1995-02-29')).toBeNull();
    expect(parseCalendarDate('1995-13-01')).toBeNull();
    expect(parseCalendarDate('1996-02-29')).toEqual({ year: 1996, month: 2, day: 29 });
  });

  it('formats a day for a date input and reads the local calendar day', () => {
    expect(formatCalendarDate({ year: 2001, month: 3, day: 7 })).toBe('2001-03-07');
    expect(calendarDateOf(new Date(2024, 0, 31, 23, 59))).toEqual({ year: 2024, month: 1, day: 31 });
  });
});

describe('age from the date of birth', () => {
  const dob = day('1995-06-15');

  it('is one year less the day before the birthday', () => {
    expect(ageOn(dob, day('2025-06-14'))).toBe(29);
  });

  it('goes up on the birthday and stays the day after', () => {
    expect(ageOn(dob, day('2025-06-15'))).toBe(30);
    expect(ageOn(dob, day('2025-06-16'))).toBe(30);
  });

  it('counts a month later in the year as after the birthday', () => {
    expect(ageOn(dob, day('2025-05-31'))).toBe(29);
    expect(ageOn(dob, day('2025-07-01'))).toBe(30);
  });

  it('is 0 on the day of birth and none for a future date or no date', () => {
    expect(ageOn(day('2025-06-15'), day('2025-06-15'))).toBe(0);
    expect(ageOn(day('2025-06-16'), day('2025-06-15'))).toBeNull();
    expect(ageOn(null, day('2025-06-15'))).toBeNull();
  });

  it('turns a 29 February birthday a year older on 1 March in years without 29 February', () => {
    const leapling = day('2000-02-29');
    expect(ageOn(leapling, day('2023-02-28'))).toBe(22);
    expect(ageOn(leapling, day('2023-03-01'))).toBe(23);
    expect(ageOn(leapling, day('2024-02-28'))).toBe(23);
    expect(ageOn(leapling, day('2024-02-29'))).toBe(24);
  });
});

describe('the birthday greeting', () => {
  const dob = day('1995-06-15');

  it('shows when today matches the day and month', () => {
    expect(isBirthdayOn(dob, day('2025-06-15'))).toBe(true);
    expect(birthdayGreeting('Asha Rao', dob, day('2025-06-15'))).toBe('Happy Birthday, Asha!');
  });

  it('does not show on the days around it, nor without a date of birth', () => {
    expect(birthdayGreeting('Asha Rao', dob, day('2025-06-14'))).toBeNull();
    expect(birthdayGreeting('Asha Rao', dob, day('2025-06-16'))).toBeNull();
    expect(birthdayGreeting('Asha Rao', dob, day('2025-07-15'))).toBeNull();
    expect(birthdayGreeting('Asha Rao', null, day('2025-06-15'))).toBeNull();
  });

  it('greets a 29 February birthday only on 29 February', () => {
    const leapling = day('2000-02-29');
    expect(isBirthdayOn(leapling, day('2024-02-29'))).toBe(true);
    expect(isBirthdayOn(leapling, day('2023-02-28'))).toBe(false);
    expect(isBirthdayOn(leapling, day('2023-03-01'))).toBe(false);
  });

  it('greets without a name when there is none', () => {
    expect(birthdayGreeting('  ', dob, day('2025-06-15'))).toBe('Happy Birthday!');
  });

  it('knows a date after today is in the future', () => {
    expect(isInFuture(day('2025-06-16'), day('2025-06-15'))).toBe(true);
    expect(isInFuture(day('2025-06-15'), day('2025-06-15'))).toBe(false);
  });
});
