import { PageTitle } from '@/components/seo/page-title';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { ProductSection } from '@/features/catalog/components/product-section';
import { useCartActions } from '@/features/cart/hooks/use-cart-actions';

// The carousel, collections strip, best sellers, testimonials and custom sections need API calls that
// are not served yet; until they are, the homepage is the New Arrivals grid.
export function HomeRoute() {
  const { addProduct, buyProduct } = useCartActions();
  return (
    <>
      <PageTitle title={site.tagline} />
      <ProductSection
        title="New Arrivals"
        viewAllHref={paths.products.getHref()}
        onAddToCart={(product) => addProduct(product)}
        onBuyNow={buyProduct}
      />
    </>
  );
}
