import { queryRows, sql, type Query } from '@shop/shared/db/query-builder';
import { paiseToRupees } from '@shop/shared/money/money';
import type pg from 'pg';

/** A product as the API answers it (price in rupees, as the seeds' clients expect). */
export interface ProductView {
  id: string;
  name: string;
  price: number;
  description: string;
  category: string;
  quantity: number;
  size: string;
  color: string;
  brand: string;
  material: string;
  image: string;
  sizeQuantities: Record<string, number>;
  isDelisted: boolean;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = [
  'id',
  'name',
  'price_paise',
  'description',
  'category',
  'quantity',
  'size',
  'color',
  'brand',
  'material',
  'image',
  'size_quantities',
  'is_delisted',
  'created_at',
  'updated_at',
] as const;
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM catalog.products`;

/** A catalog.products row as the views are made from. */
export interface Row {
  id: string;
  name: string;
  price_paise: bigint;
  description: string;
  category: string;
  quantity: number;
  size: string;
  color: string;
  brand: string;
  material: string;
  image: string;
  size_quantities: Record<string, number>;
  is_delisted: boolean;
  created_at: Date;
  updated_at: Date;
}

export const toView = (r: Row): ProductView => ({
  id: r.id,
  name: r.name,
  price: paiseToRupees(r.price_paise),
  description: r.description,
  category: r.category,
  quantity: r.quantity,
  size: r.size,
  color: r.color,
  brand: r.brand,
  material: r.material,
  image: r.image,
  sizeQuantities: r.size_quantities,
  isDelisted: r.is_delisted,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Which products a list shows, and in what order (GET /api/products and its variants). */
export interface ProductListFilter {
  /** Delisted products too (admins only). */
  includeDelisted: boolean;
  /** Only these products (a collection's). */
  ids?: readonly string[];
  /** Newest first (the default), or by units sold, most first, then newest first. */
  sort?: 'newest' | 'best-selling';
}

/** The product list's query, composed from its filters; ties always newest first, then by id. */
export function productListQuery(filter: ProductListFilter): Query {
  const q = sql.from({ p: 'catalog.products' }).select(COLUMNS.map((c) => `p.${c}`));
  if (!filter.includeDelisted) q.where('p.is_delisted', false);
  if (filter.ids) q.whereRaw('p.id = ANY(?::text[])', [[...filter.ids]]);
  if (filter.sort === 'best-selling')
    q.leftJoin({ b: 'catalog.best_sellers' }, 'b.product_id', 'p.id').orderByRaw('coalesce(b.units_sold, 0) DESC');
  return q.orderBy([{ column: 'p.created_at', order: 'desc' }, 'p.id']);
}

/** The products a list shows, as views. */
export async function listProducts(db: pg.Pool, filter: ProductListFilter): Promise<ProductView[]> {
  return (await queryRows<Row>(db, productListQuery(filter))).map(toView);
}

export async function findProduct(db: pg.Pool, id: string): Promise<ProductView | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? toView(rows[0]) : null;
}

/** The products with these ids, in the order given; delisted ones only when asked; unknown ids left out. */
export async function listProductsByIds(
  db: pg.Pool,
  ids: readonly string[],
  opts: { includeDelisted: boolean },
): Promise<ProductView[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await listProducts(db, { ...opts, ids })).map((p) => [p.id, p]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
