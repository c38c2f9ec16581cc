import { describe, expect, it } from 'vitest';
import { indiaDate, lastIndiaDays } from './india-date.ts';

describe('India-time days', () => {
  it('turn at midnight in India, 18:30 UTC', () => {
    expect(indiaDate('2026-11-22T18:29:59.999Z')).toBe('2026-11-22');
    expect(indiaDate('2026-11-22T18:30:00.000Z')).toBe('2026-11-23');
    expect(indiaDate(new Date('2026-11-22T00:00:00+05:30'))).toBe('2026-11-22');
    expect(indiaDate('2026-12-31T20:00:00Z')).toBe('2027-01-01');
  });
  it('refuse what is not a time', () => {
    expect(() => indiaDate('yesterday')).toThrow(RangeError);
  });
  it('list the last days oldest first, ending with India’s today, across month ends', () => {
    const days = lastIndiaDays(new Date('2026-03-01T19:00:00Z'), 30); // 2 March 00:30 in India
    expect(days).toHaveLength(30);
    expect(days[29]).toBe('2026-03-02');
    expect(days[28]).toBe('2026-03-01');
    expect(days[27]).toBe('2026-02-28');
    expect(days[0]).toBe('2026-02-01');
    expect(new Set(days).size).toBe(30);
  });
});
