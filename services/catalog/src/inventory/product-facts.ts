import type pg from 'pg';
import type { PubSub } from '@shop/shared/cache/types';
import { ProjectedViewCache } from '@shop/shared/cache/projected-view';

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

/**
 * The pricing facts of products in memory, so pricing a checkout line is no query. Loaded from the products
 * read model on first use and dropped when the products projection commits a change to the product (not
 * on the stock movements of a sale), in every process.
 */
export class ProductFactsView {
  private readonly view: ProjectedViewCache<ProductFacts | null>;

  constructor(db: pg.Pool, pubsub: PubSub) {
    this.view = new ProjectedViewCache({
      channel: 'catalog.product-facts.changed',
      pubsub,
      load: (id) => loadFacts(db, id),
    });
  }

  start(): Promise<void> {
    return this.view.start();
  }

  stop(): Promise<void> {
    return this.view.stop();
  }

  /** The product's facts, or null if there is no such product. */
  get(productId: string): Promise<ProductFacts | null> {
    return this.view.get(productId);
  }

  /** The products projection committed changes to these products. */
  changed(productIds: string[]): Promise<void> {
    return this.view.changed(productIds);
  }
}

async function loadFacts(db: pg.Pool, productId: string): Promise<ProductFacts | null> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    image: string;
    price_paise: bigint;
    is_delisted: boolean;
    size_quantities: Record<string, number>;
  }>(`SELECT id, name, image, price_paise, is_delisted, size_quantities FROM catalog.products WHERE id = $1`, [
    productId,
  ]);
  const r = rows[0];
  return r
    ? {
        id: r.id,
        name: r.name,
        image: r.image,
        pricePaise: Number(r.price_paise),
        isDelisted: r.is_delisted,
        sizeQuantities: r.size_quantities,
      }
    : null;
}
