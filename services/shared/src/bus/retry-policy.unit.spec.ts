import { describe, expect, it } from 'vitest';
import { backoffDelay, isConnectionError, retryPolicy } from './retry-policy.ts';

describe('retry policy', () => {
  it('doubles the delay after each failure, up to the cap', () => {
    const p = retryPolicy({ attempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, p))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('refuses a policy that could never run the handler', () => {
    expect(() => retryPolicy({ attempts: 0 })).toThrow(/positive integer/);
  });

  it('tells a lost database connection (retried forever, never parked) from a failing handler', () => {
    expect(
      isConnectionError(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isConnectionError(new Error('price must be positive'))).toBe(false);
  });
});
