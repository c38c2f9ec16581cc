import { ValidationError } from '@shop/shared/errors/errors';

/** What the admin says about a product's stock (create or edit). */
export interface StockInput {
  /** General quantity (units sold without sizes). */
  quantity?: number;
  /** Stock per size label, in display order. */
  sizeQuantities?: Array<[string, number]>;
}

/**
 * The stock levels to set for what the admin asked, with one truth of units per product. A product whose
 * size map holds any units is sold by size: its total is the sum of its sizes and the general stream is set
 * to 0 (the admin's `quantity` is then only the form's echo of that sum). A product whose sizes hold nothing
 * is sold from the general quantity and its size streams are set to 0. Sizes dropped from the map go to 0.
 * Pure: `sizesHaveStockNow` says whether the product's current sizes hold units (only asked when the
 * command names no sizes).
 */
export function stockLevelsFor(
  stock: StockInput,
  previousSizeLabels: readonly string[],
  sizesHaveStockNow: boolean,
): Array<[string | null, number]> {
  if (!stock.sizeQuantities) {
    if (stock.quantity === undefined) return [];
    if (sizesHaveStockNow)
      throw new ValidationError('This product is stocked by size: send sizeQuantities to change its stock');
    return [[null, stock.quantity]];
  }
  const sizes = stock.sizeQuantities;
  const bySize = sizes.reduce((sum, [, n]) => sum + n, 0) > 0;
  const levels: Array<[string | null, number]> = [];
  if (bySize) levels.push([null, 0]);
  else if (stock.quantity !== undefined) levels.push([null, stock.quantity]);
  for (const [size, n] of sizes) levels.push([size, n]);
  const kept = new Set(sizes.map(([s]) => s));
  for (const size of previousSizeLabels) if (!kept.has(size)) levels.push([size, 0]);
  return levels;
}
