import { describe, expect, it } from 'vitest';
import { formatRupees, groupIndianDigits } from './money';

describe('formatRupees', () => {
  it('shows the rupee sign and exactly 2 decimals', () => {
    expect(formatRupees(999)).toBe('₹999.00');
    expect(formatRupees(49.5)).toBe('₹49.50');
    expect(formatRupees(0)).toBe('₹0.00');
  });

  it('groups digits the Indian way', () => {
    expect(formatRupees(1499)).toBe('₹1,499.00');
    expect(formatRupees(1234567.891)).toBe('₹12,34,567.89');
  });

  it('puts the minus sign before the rupee sign', () => {
    expect(formatRupees(-50)).toBe('-₹50.00');
  });
});

describe('groupIndianDigits', () => {
  it('groups lakhs and crores with up to 2 decimals', () => {
    expect(groupIndianDigits(123456789)).toBe('12,34,56,789');
    expect(groupIndianDigits(1234567.5)).toBe('12,34,567.5');
    expect(groupIndianDigits(1000.456)).toBe('1,000.46');
  });
});
