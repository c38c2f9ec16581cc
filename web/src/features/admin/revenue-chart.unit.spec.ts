import { describe, expect, it } from 'vitest';
import { formatRevenue, revenueBars, shortDate } from './revenue-chart';

describe('revenueBars', () => {
  it('scales each day to the best one', () => {
    const bars = revenueBars([
      { date: '2026-11-20', revenue: 0, orders: 0 },
      { date: '2026-11-21', revenue: 500, orders: 1 },
      { date: '2026-11-22', revenue: 1000, orders: 2 },
    ]);
    expect(bars.map((bar) => bar.share)).toEqual([0, 0.5, 1]);
  });

  it('is flat when nothing sold', () => {
    expect(revenueBars([{ date: '2026-11-22', revenue: 0, orders: 0 }])[0]?.share).toBe(0);
  });
});

describe('shortDate', () => {
  it("shows an India-time day as '5 Nov'", () => {
    expect(shortDate('2026-11-05')).toBe('5 Nov');
    expect(shortDate('not a date')).toBe('not a date');
  });
});

describe('formatRevenue', () => {
  it('shows rupees in Indian digit grouping with up to 2 decimals', () => {
    expect(formatRevenue(1234567.5)).toBe('₹12,34,567.5');
    expect(formatRevenue(123456789)).toBe('₹12,34,56,789');
    expect(formatRevenue(99999.999)).toBe('₹1,00,000');
    expect(formatRevenue(1499.25)).toBe('₹1,499.25');
    expect(formatRevenue(0)).toBe('₹0');
  });
});
