import { describe, expect, it } from 'vitest';
import { sweepEveryMs } from './sweep-interval.ts';

describe('sweepEveryMs', () => {
  it('is a quarter of the hold, between 1 and 30 seconds', () => {
    expect(sweepEveryMs(60)).toBe(15_000);
    expect(sweepEveryMs(2)).toBe(1_000);
    expect(sweepEveryMs(900)).toBe(30_000);
  });
});
