import { afterAll, afterEach } from 'vitest';
import { deleteRedisKeys, uniquePrefix } from './redis-keys.ts';

/** The adapters a Redis-backed contract holds for: Redis itself at `redisUrl`, and the in-memory stand-in. */
export const redisAndMemory = (redisUrl: string) => [
  { adapter: 'redis', redisUrl: redisUrl as string | undefined },
  { adapter: 'memory', redisUrl: undefined },
];

/**
 * Prefixes for one test file on the shared Redis: the function answers a new one each call (uniquePrefix
 * with `label`), and the keys under all of them are deleted after the file's tests.
 */
export function testPrefixes(redisUrl: string): (label: string) => string {
  const taken: string[] = [];
  afterAll(() => deleteRedisKeys(redisUrl, taken));
  return (label) => {
    const prefix = uniquePrefix(label);
    taken.push(prefix);
    return prefix;
  };
}

/** Opens instances with `make`; each is closed after the test that opened it. */
export function closedAfterEachTest<A extends unknown[], T extends { close(): Promise<void> }>(
  make: (...args: A) => T,
): (...args: A) => T {
  const opened: T[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });
  return (...args) => {
    const instance = make(...args);
    opened.push(instance);
    return instance;
  };
}
