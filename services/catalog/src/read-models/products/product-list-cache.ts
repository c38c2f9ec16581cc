import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Cache, PubSub } from '@shop/shared/cache/types';
import { EncodedBody } from '@shop/shared/http/compression';
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
  /** The list's bytes, with their compressed forms once a client asked for one (made once per change). */
  private local = new Map<string, EncodedBody>();
  /** Bumped on every invalidation so an in-process load that raced with one is not kept. */
  private generation = 0;
  private unsubscribe?: () => Promise<void>;

  constructor(
    /** null in a process that only reads what the catalog service put in the shared cache (the gateway). */
    private readonly db: pg.Pool | null,
    private readonly cache: Cache,
    private readonly pubsub: PubSub,
  ) {}

  async start(): Promise<void> {
    // onGap: invalidations may have gone unheard while Redis was unreachable
    this.unsubscribe = await this.pubsub.subscribe(CHANNEL, () => this.dropLocal(), { onGap: () => this.dropLocal() });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** The JSON body of the product list. */
  async get(includeDelisted: boolean): Promise<EncodedBody> {
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
    let bytes: Buffer;
    if (shared !== null) {
      bytes = Buffer.from(shared);
    } else {
      if (!this.db) throw new Error('ProductListCache without a database can only peek');
      const json = JSON.stringify(await listProducts(this.db, { includeDelisted }));
      bytes = Buffer.from(json);
      await this.cache.set(k, json, 600);
    }
    const body = new EncodedBody(bytes);
    if (gen === this.generation) this.local.set(localKey, body);
    return body;
  }

  /**
   * The list's JSON body if a cache holds it (in-process copy, then the shared cache), else null: never
   * reads Postgres. The gateway answers from this and forwards to the catalog service on a miss.
   */
  async peek(includeDelisted: boolean): Promise<EncodedBody | null> {
    const localKey = includeDelisted ? 'all' : 'public';
    const hit = this.local.get(localKey);
    if (hit) return hit;
    const gen = this.generation;
    const version = await this.cache.get(VERSION_KEY);
    if (version === null) return null;
    const shared = await this.cache.get(bodyKey(version, includeDelisted));
    if (shared === null) return null;
    const body = new EncodedBody(Buffer.from(shared));
    if (gen === this.generation) this.local.set(localKey, body);
    return body;
  }

  /** Forgets the in-process copy (a write passed through this process). */
  dropLocalCopy(): void {
    this.dropLocal();
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
