/** A stock level row: a product's units available in one size ('' for the general stock). */
export interface StockLevelRow {
  readonly size: unknown;
  readonly available: unknown;
}

/**
 * A product's units on sale, from its stock level rows: the general stock, never below 0, plus each
 * offered size's level, never below 0. A size no longer offered counts for nothing.
 */
export function unitsOnSale(levels: readonly StockLevelRow[], offered: readonly string[]): number {
  const labels = new Set(offered);
  let general = 0;
  let sum = 0;
  for (const l of levels) {
    const available = l.available as number;
    if (l.size === '') general = available;
    else if (labels.has(l.size as string)) sum += Math.max(0, available);
  }
  return Math.max(0, general) + sum;
}
