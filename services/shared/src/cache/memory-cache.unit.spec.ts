import { describe, expect, it } from 'vitest';
import { MemoryCache } from './memory-cache.ts';

describe('MemoryCache', () => {
  it('evicts the least recently used entry when full; a read counts as a use', async () => {
    const cache = new MemoryCache({ maxEntries: 2 });
    await cache.set('a', '1');
    await cache.set('b', '2');
    expect(await cache.get('a')).toBe('1');
    await cache.set('c', '3');
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual(['1', null, '3']);
    expect(cache.size).toBe(2);
  });

  it('expires on the clock, to the millisecond, and overwriting resets the TTL', async () => {
    let now = 1_000;
    const cache = new MemoryCache({ now: () => now });
    await cache.set('k', 'v', 1.5);
    now += 1_499;
    expect(await cache.get('k')).toBe('v');
    now += 1;
    expect(await cache.get('k')).toBeNull();
    expect(cache.size).toBe(0);
    await cache.set('k', 'v1', 1);
    now += 900;
    await cache.set('k', 'v2');
    now += 10_000;
    expect(await cache.get('k')).toBe('v2');
  });
});
