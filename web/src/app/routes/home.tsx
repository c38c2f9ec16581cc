import { useAppSelector } from '@/app/hooks';
import { PageTitle } from '@/components/seo/page-title';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { selectIsLoggedIn } from '@/features/auth/session-slice';
import { useCartActions } from '@/features/cart/hooks/use-cart-actions';
import { ProductGrid } from '@/features/catalog/components/product-grid';
import { ProductSection } from '@/features/catalog/components/product-section';
import { CollectionsStrip } from '@/features/home/components/collections-strip';
import { CustomSections } from '@/features/home/components/custom-sections';
import { HomeCarousel } from '@/features/home/components/home-carousel';
import { TestimonialsSection } from '@/features/home/components/testimonials-section';

// The seed's homepage order: carousel, New Arrivals, the collections strip, Best Sellers, Testimonials,
// then the admin-defined sections. The route wires the features together (they never import each other).
export function HomeRoute() {
  const { addProduct, buyProduct } = useCartActions();
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const onAddToCart = (product: Parameters<typeof addProduct>[0]) => addProduct(product);
  return (
    <>
      <PageTitle title={site.tagline} />
      <HomeCarousel />
      <ProductSection
        title="New Arrivals"
        viewAllHref={paths.products.getHref()}
        onAddToCart={onAddToCart}
        onBuyNow={buyProduct}
      />
      <CollectionsStrip />
      <ProductSection
        title="Best Sellers"
        order="best-selling"
        viewAllHref={paths.products.getHref()}
        onAddToCart={onAddToCart}
        onBuyNow={buyProduct}
      />
      <TestimonialsSection isLoggedIn={isLoggedIn} loginHref={paths.login.getHref(paths.home.getHref())} />
      <CustomSections
        renderProducts={(products) => (
          <ProductGrid products={products} onAddToCart={onAddToCart} onBuyNow={buyProduct} />
        )}
      />
    </>
  );
}
