import type { Product } from '@/types/api';
import { ProductCard, type ProductCardActions } from './product-card';

/** Product cards in a responsive grid, or 'No products found' when there are none. */
export function ProductGrid({ products, ...actions }: { products: readonly Product[] } & ProductCardActions) {
  if (products.length === 0) return <p className="empty-state">No products found</p>;
  return (
    <ul className="product-grid">
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} {...actions} />
        </li>
      ))}
    </ul>
  );
}
