import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { useGetBestSellersQuery, useGetProductsQuery } from '../api/products-api';
import type { ProductCardActions } from './product-card';
import { ProductGrid } from './product-grid';
import styles from './product-section.module.css';

type ProductSectionProps = ProductCardActions & {
  title: string;
  /** Where 'View All' leads; omitted hides the link. */
  viewAllHref?: string;
  /** Newest first (New Arrivals, the default) or by units sold (Best Sellers). */
  order?: 'newest' | 'best-selling';
};

/** A titled grid of every listed product, as on the homepage; a failed load shows the empty state. */
export function ProductSection({ title, viewAllHref, order = 'newest', ...actions }: ProductSectionProps) {
  const newest = useGetProductsQuery(undefined, { skip: order !== 'newest' });
  const bestSelling = useGetBestSellersQuery(undefined, { skip: order !== 'best-selling' });
  const { data, isLoading } = order === 'best-selling' ? bestSelling : newest;
  const products = (data ?? []).filter((product) => !product.isDelisted);
  const headingId = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;

  return (
    <section className={`container ${styles.section}`} aria-labelledby={headingId}>
      <header className={styles.header}>
        <h2 id={headingId} className={styles.title}>
          {title}
        </h2>
        {viewAllHref ? (
          <Link to={viewAllHref} className="btn btn-outline btn-sm">
            View All
          </Link>
        ) : null}
      </header>
      {isLoading ? <Spinner label="Loading products..." /> : <ProductGrid products={products} {...actions} />}
    </section>
  );
}
