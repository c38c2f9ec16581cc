import { GENERIC_SIZES, hasSizeStock } from '@/lib/stock';
import type { Product } from '@/types/api';

export type SizeChoice = { label: string; inStock: boolean };

/**
 * Size buttons for the product page: the sizes with their own stock (those at 0 disabled) when stock is
 * kept per size, otherwise the generic XS to XXL, whose availability is the product quantity.
 */
export function sizeChoices(product: Pick<Product, 'quantity' | 'sizeQuantities'>): SizeChoice[] {
  if (hasSizeStock(product)) {
    return Object.entries(product.sizeQuantities).map(([label, count]) => ({ label, inStock: count > 0 }));
  }
  return GENERIC_SIZES.map((label) => ({ label, inStock: product.quantity > 0 }));
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
