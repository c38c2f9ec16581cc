import { useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { CloseIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import type { Product } from '@/types/api';
import { useGetCollectionProductsQuery, useGetProductsQuery } from '../api/products-api';
import { filterProducts, listCategories, resolveCategory } from '../product-filters';
import { CategoryList } from './category-list';
import type { ProductCardActions } from './product-card';
import { ProductGrid } from './product-grid';
import styles from './product-list.module.css';

// A stable empty list, so the memoised filters do not rerun while the products load.
const NO_PRODUCTS: Product[] = [];

/**
 * The shop page: live search over name and description, a category list (a drawer on small screens)
 * whose choice lives in ?category= so links can preselect it, and the matching product cards.
 * A failed load shows the empty state, as for every public list.
 */
export function ProductList(actions: ProductCardActions) {
  const [searchParams, setSearchParams] = useSearchParams();
  // ?collection={id} narrows the list to that collection's products (an unknown one shows the empty state).
  const collectionId = searchParams.get('collection')?.trim() || null;
  const allProducts = useGetProductsQuery(undefined, { skip: collectionId !== null });
  const collectionProducts = useGetCollectionProductsQuery(collectionId ?? '', { skip: collectionId === null });
  const { data = NO_PRODUCTS, isLoading } = collectionId === null ? allProducts : collectionProducts;
  const [search, setSearch] = useState('');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerId = useId();

  const listed = useMemo(() => data.filter((product) => !product.isDelisted), [data]);
  const categories = useMemo(() => listCategories(listed), [listed]);
  const selectedCategory = resolveCategory(searchParams.get('category'), categories);
  const shown = useMemo(
    () => filterProducts(listed, { search, category: selectedCategory }),
    [listed, search, selectedCategory],
  );

  const selectCategory = (category: string | null) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (category) next.set('category', category);
        else next.delete('category');
        return next;
      },
      { replace: true },
    );
    setDrawerOpen(false);
  };

  return (
    <section className={`container page ${styles.page}`}>
      <PageTitle title={selectedCategory ? `${selectedCategory} · Shop` : 'Shop'} />
      <header className={styles.header}>
        <h1 className={`page-title ${styles.title}`}>shop</h1>
        <div className={styles.tools}>
          <input
            type="search"
            className={`input ${styles.search}`}
            placeholder="Search products..."
            aria-label="Search products"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <button
            type="button"
            className={`btn btn-outline ${styles.drawerToggle}`}
            aria-expanded={drawerOpen}
            aria-controls={drawerId}
            onClick={() => setDrawerOpen(true)}
          >
            Categories
          </button>
        </div>
      </header>

      <div className={styles.layout}>
        {drawerOpen ? (
          <div className={styles.backdrop} onClick={() => setDrawerOpen(false)} aria-hidden="true" />
        ) : null}
        <aside id={drawerId} className={drawerOpen ? `${styles.side} ${styles.sideOpen}` : styles.side}>
          <button
            type="button"
            className={styles.drawerClose}
            aria-label="Close categories"
            onClick={() => setDrawerOpen(false)}
          >
            <CloseIcon />
          </button>
          <CategoryList
            categories={categories}
            totalCount={listed.length}
            selected={selectedCategory}
            onSelect={selectCategory}
          />
        </aside>
        <div className={styles.results} aria-live="polite" aria-busy={isLoading}>
          {isLoading ? <Spinner label="Loading products..." /> : <ProductGrid products={shown} {...actions} />}
        </div>
      </div>
    </section>
  );
}
