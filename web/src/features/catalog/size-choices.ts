import { GENERIC_SIZES, hasSizeStock } from '@/lib/stock';
import type { Product } from '@/types/api';

export type SizeChoice = { label: string; inStock: boolean };

/**
 * Size buttons for the product page. A product with a size map offers its own sizes, even when every count is
 * 0 (a saree's 'Free Size' is not an XS): with stock above 0 in some size, those at 0 are disabled; with none,
 * each size's availability is the product quantity. Only a product without a size map gets the generic XS to XXL.
 */
export function sizeChoices(product: Pick<Product, 'quantity' | 'sizeQuantities'>): SizeChoice[] {
  const own = Object.entries(product.sizeQuantities);
  if (own.length === 0) return GENERIC_SIZES.map((label) => ({ label, inStock: product.quantity > 0 }));
  const perSize = hasSizeStock(product);
  return own.map(([label, count]) => ({ label, inStock: perSize ? count > 0 : product.quantity > 0 }));
}

/** Colour options from the product's colour field, which may list several separated by commas. */
export function colourChoices(product: Pick<Product, 'color'>): string[] {
  return [
    ...new Set(
      product.color
        .split(',')
        .map((colour) => colour.trim())
        .filter(Boolean),
    ),
  ];
}
