import { describe, expect, it } from 'vitest';
import { assertBackoff, delayFor, retry } from './retry.ts';

describe('delayFor', () => {
  it('doubles from the base after each failure and stops at the bound', () => {
    const backoff = { baseMs: 200, maxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => delayFor(backoff, n))).toEqual([
      200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000,
    ]);
    expect(delayFor(backoff, 0)).toBe(200);
    expect(delayFor(backoff, 1_000)).toBe(10_000);
  });

  it('grows by another factor, unbounded by default', () => {
    expect([1, 2, 3].map((n) => delayFor({ baseMs: 100, factor: 3 }, n))).toEqual([100, 300, 900]);
    expect(delayFor({ baseMs: 1_000 }, 31)).toBe(1_000 * 2 ** 30);
  });

  it('takes up to the jitter share off a wait, never more', () => {
    const backoff = { baseMs: 1_000, jitter: 0.5 };
    expect(delayFor(backoff, 1, () => 0)).toBe(1_000);
    expect(delayFor(backoff, 1, () => 0.999_999)).toBeCloseTo(500, 2);
    expect(delayFor(backoff, 2, () => 0.5)).toBe(1_500);
  });

  it('refuses nonsense', () => {
    expect(() => assertBackoff({ baseMs: -1 })).toThrow(RangeError);
    expect(() => assertBackoff({ baseMs: 100, maxMs: 50 })).toThrow(RangeError);
    expect(() => assertBackoff({ baseMs: 100, factor: 0.5 })).toThrow(RangeError);
    expect(() => assertBackoff({ baseMs: 100, jitter: 2 })).toThrow(RangeError);
    expect(() => assertBackoff({ baseMs: 0, maxMs: 0, jitter: 1 })).not.toThrow();
  });
});

describe('retry', () => {
  it('runs until the function succeeds, numbering the attempts and telling each wait', async () => {
    const waits: Array<[number, number]> = [];
    const seen: number[] = [];
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error(`failure ${attempt}`);
        return 'done';
      },
      { baseMs: 1, attempts: 5, onRetry: (_err, attempt, delayMs) => waits.push([attempt, delayMs]) },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(waits).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('rethrows the last failure when the attempts are used up', async () => {
    let calls = 0;
    await expect(
      retry(
        async (attempt) => {
          calls += 1;
          throw new Error(`failure ${attempt}`);
        },
        { baseMs: 0, attempts: 4 },
      ),
    ).rejects.toThrow('failure 4');
    expect(calls).toBe(4);
  });

  it('rethrows at once a failure shouldRetry refuses', async () => {
    class Conflict extends Error {}
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls += 1;
          throw calls === 1 ? new Conflict('stale') : new TypeError('a bug');
        },
        { baseMs: 0, attempts: 5, shouldRetry: (err) => err instanceof Conflict },
      ),
    ).rejects.toThrow(TypeError);
    expect(calls).toBe(2);
  });

  it('stops waiting when aborted', async () => {
    const stop = new AbortController();
    const running = retry(
      async () => {
        throw new Error('down');
      },
      { baseMs: 60_000, signal: stop.signal, onRetry: () => stop.abort(new Error('shutting down')) },
    );
    await expect(running).rejects.toThrow('shutting down');
  });

  it('refuses fewer than one attempt', async () => {
    await expect(retry(async () => 1, { baseMs: 0, attempts: 0 })).rejects.toThrow(RangeError);
  });
});
