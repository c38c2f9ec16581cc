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

const SELECT = `SELECT id, name, price_paise, description, category, quantity, size, color, brand, material, image,
  size_quantities, is_delisted, created_at, updated_at FROM catalog.products`;

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

/** Newest first; delisted products only when asked (admin). */
export async function listProducts(db: pg.Pool, opts: { includeDelisted: boolean }): Promise<ProductView[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} ${opts.includeDelisted ? '' : 'WHERE NOT is_delisted'} ORDER BY created_at DESC, id`,
  );
  return rows.map(toView);
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
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE id = ANY ($1::text[]) ${opts.includeDelisted ? '' : 'AND NOT is_delisted'}`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, toView(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
