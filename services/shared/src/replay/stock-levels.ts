import type { FoldedState, FoldedTable } from './fold.ts';

/**
 * A stock levels table (product_id, size, available) as a replay fold holds it: per product, the units
 * available per size ('' for the general stock). catalog.stock_levels and the order service's copy of it,
 * orders.dashboard_stock_levels, are both folded with it, and both count a product's units the one way
 * (units()).
 */
export class StockLevels implements FoldedState {
  /** product id → size → available. */
  private readonly levels = new Map<string, Map<string, number>>();

  /** `table`: the live table, schema-qualified. */
  constructor(readonly table: string) {}

  /** INSERT ... ON CONFLICT DO UPDATE SET available = `available`. */
  set(productId: string, size: string, available: number): void {
    this.of(productId).set(size, available);
  }

  /** INSERT (`delta`) ... ON CONFLICT DO UPDATE SET available = available + `delta`. */
  add(productId: string, size: string, delta: number): void {
    const sizes = this.of(productId);
    sizes.set(size, (sizes.get(size) ?? 0) + delta);
  }

  /** A size's level (0 without a row), as `coalesce(s.available, 0)`. */
  available(productId: string, size: string): number {
    return this.levels.get(productId)?.get(size) ?? 0;
  }

  /** DELETE ... WHERE product_id = `productId`. */
  delete(productId: string): void {
    this.levels.delete(productId);
  }

  /**
   * A product's units on sale, as the projections count them: the general stock, never below 0, plus each
   * offered size's level, never below 0 (`greatest(0, general) + sum(greatest(0, available))` of the rows
   * whose size is in `offered`). A size no longer offered counts for nothing.
   */
  units(productId: string, offered: readonly string[]): number {
    const sizes = this.levels.get(productId);
    if (!sizes) return 0;
    const labels = new Set(offered);
    let sum = 0;
    for (const [size, available] of sizes) if (labels.has(size)) sum += Math.max(0, available);
    return Math.max(0, sizes.get('') ?? 0) + sum;
  }

  folded(): FoldedTable {
    const rows: unknown[][] = [];
    for (const [productId, sizes] of this.levels)
      for (const [size, available] of sizes) rows.push([productId, size, available]);
    return { table: this.table, columns: ['product_id', 'size', 'available'], rows };
  }

  private of(productId: string): Map<string, number> {
    let sizes = this.levels.get(productId);
    if (!sizes) this.levels.set(productId, (sizes = new Map()));
    return sizes;
  }
}
