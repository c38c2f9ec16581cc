import type pg from 'pg';

/** A product in a collection, as the collections answers list it. */
export interface CollectionProductView {
  id: string;
  name: string;
  /** Only in admins' answers (they see delisted products too, marked). */
  isDelisted?: boolean;
}

/** A collection as the API answers it (`Products`: the seed's field name). */
export interface CollectionView {
  id: string;
  name: string;
  description: string;
  image: string;
  Products: CollectionProductView[];
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  name: string;
  description: string;
  image: string;
  products: Array<{ id: string; name: string; isDelisted: boolean }>;
  created_at: Date;
  updated_at: Date;
}

/**
 * Products joined from catalog.products at read time: only products the catalog holds (a deleted one, or
 * one whose creation the products projection has not seen yet, is not shown), in the order added.
 * $1: include delisted products.
 */
const SELECT = `SELECT c.id, c.name, c.description, c.image, c.created_at, c.updated_at,
  coalesce((SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'isDelisted', p.is_delisted) ORDER BY cp.position)
              FROM catalog.collection_products cp JOIN catalog.products p ON p.id = cp.product_id
             WHERE cp.collection_id = c.id AND ($1::boolean OR NOT p.is_delisted)), '[]'::json) AS products
  FROM catalog.collections c`;

const toView = (r: Row, includeDelisted: boolean): CollectionView => ({
  id: r.id,
  name: r.name,
  description: r.description,
  image: r.image,
  Products: r.products.map((p) => (includeDelisted ? p : { id: p.id, name: p.name })),
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Every collection, oldest first. Delisted products only when asked (admins). */
export async function listCollections(db: pg.Pool, opts: { includeDelisted: boolean }): Promise<CollectionView[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY c.created_at, c.id`, [opts.includeDelisted]);
  return rows.map((r) => toView(r, opts.includeDelisted));
}

export async function findCollection(
  db: pg.Pool,
  id: string,
  opts: { includeDelisted: boolean },
): Promise<CollectionView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE c.id = $2`, [opts.includeDelisted, id]);
  return rows[0] ? toView(rows[0], opts.includeDelisted) : null;
}

/** The collections with these ids, in the order given; unknown (or deleted) ones left out. */
export async function listCollectionsByIds(
  db: pg.Pool,
  ids: readonly string[],
  opts: { includeDelisted: boolean },
): Promise<CollectionView[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} JOIN unnest($2::text[]) WITH ORDINALITY AS wanted(id, ord) ON wanted.id = c.id ORDER BY wanted.ord`,
    [opts.includeDelisted, ids],
  );
  return rows.map((r) => toView(r, opts.includeDelisted));
}

/** A collection's product ids in the order added, or null when there is no such collection. */
export async function collectionProductIds(db: pg.Pool, id: string): Promise<string[] | null> {
  const { rows } = await db.query<{ ids: string[] | null }>(
    `SELECT (SELECT array_agg(product_id ORDER BY position) FROM catalog.collection_products WHERE collection_id = c.id) AS ids
       FROM catalog.collections c WHERE c.id = $1`,
    [id],
  );
  return rows[0] ? (rows[0].ids ?? []) : null;
}
