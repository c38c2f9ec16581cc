import { describe, expect, it } from 'vitest';
import { phoneProblem } from './fields';

const INVALID = 'Please enter a valid 10-digit mobile number';

describe('phoneProblem (the Indian mobile number rule)', () => {
  it('takes 10 digits starting 6 to 9, after +91, 91 or 0, with spaces and dashes', () => {
    for (const phone of [
      '9845012345',
      '6000000000',
      '+91 98450 12345',
      '+919845012345',
      '91-98450-12345',
      '098450 12345',
      ' 98450-123-45 ',
    ])
      expect(phoneProblem(phone), phone).toBeNull();
  });

  it("refuses '12', short or long numbers, a first digit below 6, other prefixes and letters", () => {
    for (const phone of [
      '12',
      '984501234',
      '98450123456',
      '5845012345',
      '+92 98450 12345',
      '+1 9845012345',
      '98450l2345',
      '+91',
      '(984) 501-2345',
    ])
      expect(phoneProblem(phone), phone).toBe(INVALID);
  });

  it('says a missing phone is required, unless blank is allowed (a profile may clear it)', () => {
    expect(phoneProblem('  ')).toBe('Phone is required');
    expect(phoneProblem('', { blankAllowed: true })).toBeNull();
    expect(phoneProblem('12', { blankAllowed: true })).toBe(INVALID);
  });
});
