import type { Product } from '@/types/api';

/** Label of the category entry that shows every product. */
export const ALL_PRODUCTS_LABEL = 'All Product';

/** Distinct trimmed, non-empty categories, sorted alphabetically. */
export function listCategories(products: readonly Pick<Product, 'category'>[]): string[] {
  const categories = new Set(products.map((product) => product.category.trim()).filter(Boolean));
  return [...categories].sort((a, b) => a.localeCompare(b));
}

/**
 * The category a ?category= value selects: the listed category it names, ignoring case and spaces
 * around it, or the trimmed value itself when no product has it yet; null (all products) when absent.
 */
export function resolveCategory(requested: string | null, categories: readonly string[]): string | null {
  const wanted = requested?.trim();
  if (!wanted) return null;
  return categories.find((category) => category.toLowerCase() === wanted.toLowerCase()) ?? wanted;
}

export type ProductFilter = { search: string; category: string | null };

/** Products in the category (null for all) whose name or description contains the search text, any case. */
export function filterProducts<T extends Pick<Product, 'name' | 'description' | 'category'>>(
  products: readonly T[],
  { search, category }: ProductFilter,
): T[] {
  const needle = search.trim().toLowerCase();
  const wantedCategory = category?.trim().toLowerCase() ?? null;
  return products.filter((product) => {
    if (wantedCategory !== null && product.category.trim().toLowerCase() !== wantedCategory) return false;
    if (!needle) return true;
    return product.name.toLowerCase().includes(needle) || product.description.toLowerCase().includes(needle);
  });
}
