import type { Product } from '@/types/api';

type StockFields = Pick<Product, 'quantity' | 'sizeQuantities'>;

/** Sizes offered when a product does not track stock per size. */
export const GENERIC_SIZES = Object.freeze(['XS', 'S', 'M', 'L', 'XL', 'XXL']);

/** True when at least one size has stock above 0; only then does stock per size decide availability. */
export function hasSizeStock(product: StockFields): boolean {
  return Object.values(product.sizeQuantities).some((count) => count > 0);
}

/** Out of stock: quantity at most 0 and no size has stock above 0. */
export function isOutOfStock(product: StockFields): boolean {
  return product.quantity <= 0 && !hasSizeStock(product);
}

/**
 * Units that can be bought. With a size chosen and stock kept per size, that size's stock; otherwise
 * the product quantity, or the sum over sizes when that is larger, so a product that is not out of
 * stock never refuses an add made without a size (the product list has no size picker).
 */
export function availableStock(product: StockFields, size: string | null): number {
  if (hasSizeStock(product)) {
    if (size !== null) return Math.max(0, product.sizeQuantities[size] ?? 0);
    const sizeTotal = Object.values(product.sizeQuantities).reduce((sum, count) => sum + Math.max(0, count), 0);
    return Math.max(product.quantity, sizeTotal);
  }
  return Math.max(0, product.quantity);
}
