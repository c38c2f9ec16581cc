import { ProductList } from '@/features/catalog/components/product-list';
import { useCartActions } from '@/features/cart/hooks/use-cart-actions';

export function ProductsRoute() {
  const { addProduct, buyProduct } = useCartActions();
  return <ProductList onAddToCart={(product) => addProduct(product)} onBuyNow={buyProduct} />;
}
