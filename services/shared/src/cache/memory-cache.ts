import type { Cache } from './types.ts';
import { ttlToMs } from './ttl.ts';

export interface MemoryCacheOptions {
  /** Most entries kept; setting one more evicts the least recently used. Default 10,000. */
  maxEntries?: number;
  /** Clock in ms (tests pass a fake one). */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * In-process cache for the embedded mode: TTLs honoured on read, size bounded by LRU eviction.
 * Private to its instance, so it needs no key prefix: the composition root shares one instance.
 */
export class MemoryCache implements Cache {
  // A Map iterates in insertion order; re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
    }
    this.now = options.now ?? Date.now;
  }

  async get(key: string): Promise<string | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return null;
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const ttlMs = ttlToMs(ttlSeconds);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : this.now() + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  async del(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  /** Entries held, expired ones not yet evicted included (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async ping(): Promise<void> {
    // in-process: always there
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
