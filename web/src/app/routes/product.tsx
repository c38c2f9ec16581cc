import { useParams } from 'react-router-dom';
import { ProductDetail } from '@/features/catalog/components/product-detail';
import { useCartActions } from '@/features/cart/hooks/use-cart-actions';

export function ProductRoute() {
  const { productId = '' } = useParams<'productId'>();
  const { addProduct } = useCartActions();
  return (
    <ProductDetail productId={productId} onAddToCart={(product, size, color) => addProduct(product, size, color)} />
  );
}
