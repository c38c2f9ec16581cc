import type pg from 'pg';
import type { PubSub } from '@shop/shared/cache/types';

/** What a checkout line needs to know of its product: name, image, price (paise), sizes, whether on sale. */
export interface ProductFacts {
  id: string;
  name: string;
  image: string;
  pricePaise: number;
  isDelisted: boolean;
  /** The offered sizes with the units the read model last showed (whether the product is sold by size). */
  sizeQuantities: Record<string, number>;
}

const CHANNEL = 'catalog.product-facts.changed';
/** A backstop for a change whose message was lost: no fact is older than this. */
const MAX_AGE_MS = 5_000;

/**
 * The pricing facts of products in memory, so pricing a checkout line is no query. Loaded from the products
 * read model on first use and dropped when the products projection commits a change to the product (not
 * on the stock movements of a sale), in every process through pub/sub.
 */
export class ProductFactsView {
  private readonly facts = new Map<string, { facts: ProductFacts | null; at: number }>();
  private readonly loading = new Map<string, Promise<ProductFacts | null>>();
  /** Bumped by every change: a load that raced with one is not kept. */
  private generation = 0;
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly db: pg.Pool,
    private readonly pubsub: PubSub,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(CHANNEL, (message) => this.drop(JSON.parse(message) as string[]));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** The product's facts, or null if there is no such product. */
  get(productId: string): Promise<ProductFacts | null> {
    const hit = this.facts.get(productId);
    if (hit && performance.now() - hit.at < MAX_AGE_MS) return Promise.resolve(hit.facts);
    let pending = this.loading.get(productId);
    if (!pending) {
      pending = this.load(productId).finally(() => this.loading.delete(productId));
      this.loading.set(productId, pending);
    }
    return pending;
  }

  /** The products projection committed changes to these products: every process drops its copy. */
  async changed(productIds: string[]): Promise<void> {
    if (productIds.length === 0) return;
    this.drop(productIds);
    await this.pubsub.publish(CHANNEL, JSON.stringify(productIds));
  }

  private drop(productIds: string[]): void {
    this.generation += 1;
    for (const id of productIds) this.facts.delete(id);
  }

  private async load(productId: string): Promise<ProductFacts | null> {
    const gen = this.generation;
    const at = performance.now();
    const { rows } = await this.db.query<{
      id: string;
      name: string;
      image: string;
      price_paise: string;
      is_delisted: boolean;
      size_quantities: Record<string, number>;
    }>(`SELECT id, name, image, price_paise, is_delisted, size_quantities FROM catalog.products WHERE id = $1`, [
      productId,
    ]);
    const r = rows[0];
    const facts: ProductFacts | null = r
      ? {
          id: r.id,
          name: r.name,
          image: r.image,
          pricePaise: Number(r.price_paise),
          isDelisted: r.is_delisted,
          sizeQuantities: r.size_quantities,
        }
      : null;
    if (gen === this.generation) this.facts.set(productId, { facts, at });
    return facts;
  }
}
