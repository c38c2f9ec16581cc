import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A prefix no other test (file, run or process) uses, so tests can share one Redis. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;
}

/** Deletes the keys under the given prefixes, and only those (never FLUSHALL: Redis is shared). */
export async function deleteRedisKeys(redisUrl: string, prefixes: readonly string[]): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    for (const prefix of prefixes) {
      // Glob metacharacters in a prefix would widen the match; escape them.
      const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    await redis.quit();
  }
}
