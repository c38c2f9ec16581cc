/** Converts a cache TTL in seconds (fractions allowed) to whole milliseconds; undefined means no expiry. */
export function ttlToMs(ttlSeconds: number | undefined): number | undefined {
  if (ttlSeconds === undefined) return undefined;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`Cache TTL must be a positive number of seconds, got ${ttlSeconds}`);
  }
  return Math.max(1, Math.ceil(ttlSeconds * 1000));
}
