import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Cache, PubSub } from '@shop/shared/cache/types';
import { listProducts } from './products-queries.ts';

const CHANNEL = 'catalog.products.changed';
const VERSION_KEY = 'catalog:products:version';
const bodyKey = (version: string, includeDelisted: boolean) =>
  `catalog:products:${version}:${includeDelisted ? 'all' : 'public'}`;

/**
 * The hottest read (GET /api/products) as ready-to-send JSON bytes: an in-process copy, then the shared
 * cache (Redis in distributed mode), then the Postgres projection. After each projection commit the
 * version token changes (so a load that raced with the commit can only fill a key nobody reads any more)
 * and pub/sub tells every process to drop its in-process copy.
 */
export class ProductListCache {
  private local = new Map<string, Buffer>();
  /** Bumped on every invalidation so an in-process load that raced with one is not kept. */
  private generation = 0;
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly db: pg.Pool,
    private readonly cache: Cache,
    private readonly pubsub: PubSub,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(CHANNEL, () => this.dropLocal());
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** The JSON body of the product list. */
  async get(includeDelisted: boolean): Promise<Buffer> {
    const localKey = includeDelisted ? 'all' : 'public';
    const hit = this.local.get(localKey);
    if (hit) return hit;
    const gen = this.generation;
    let version = await this.cache.get(VERSION_KEY);
    if (version === null) {
      version = randomUUID();
      await this.cache.set(VERSION_KEY, version);
    }
    const k = bodyKey(version, includeDelisted);
    const shared = await this.cache.get(k);
    let body: Buffer;
    if (shared !== null) {
      body = Buffer.from(shared);
    } else {
      const json = JSON.stringify(await listProducts(this.db, { includeDelisted }));
      body = Buffer.from(json);
      await this.cache.set(k, json, 600);
    }
    if (gen === this.generation) this.local.set(localKey, body);
    return body;
  }

  /** Drops every cached copy (after a projection commit). */
  async invalidate(): Promise<void> {
    this.dropLocal();
    await this.cache.set(VERSION_KEY, randomUUID());
    await this.pubsub.publish(CHANNEL, String(Date.now()));
  }

  private dropLocal() {
    this.generation += 1;
    this.local.clear();
  }
}
