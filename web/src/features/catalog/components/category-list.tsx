import { ALL_PRODUCTS_LABEL } from '../product-filters';
import styles from './product-list.module.css';

type CategoryListProps = {
  categories: readonly string[];
  totalCount: number;
  /** The selected category, or null for all products. */
  selected: string | null;
  onSelect: (category: string | null) => void;
};

export function CategoryList({ categories, totalCount, selected, onSelect }: CategoryListProps) {
  const selectedKey = selected?.toLowerCase() ?? null;
  return (
    <nav aria-label="Categories">
      <h2 className={styles.sideHeading}>Categories</h2>
      <ul className={styles.categoryList}>
        <li>
          <button
            type="button"
            className={styles.categoryButton}
            aria-pressed={selectedKey === null}
            onClick={() => onSelect(null)}
          >
            <span>{ALL_PRODUCTS_LABEL}</span>
            <span className={styles.count}>({totalCount})</span>
          </button>
        </li>
        {categories.map((category) => (
          <li key={category}>
            <button
              type="button"
              className={styles.categoryButton}
              aria-pressed={selectedKey === category.toLowerCase()}
              onClick={() => onSelect(category)}
            >
              {category}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
