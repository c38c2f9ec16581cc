import { Link } from 'react-router-dom';
import { StarIcon } from '@/components/ui/icons';
import { ProductImage } from '@/components/ui/product-image';
import { paths } from '@/config/paths';
import { formatRupees } from '@/lib/money';
import { isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';
import styles from './product-card.module.css';

/** What a card's buttons do; the route wires these to the cart so this feature stays independent of it. */
export type ProductCardActions = {
  onAddToCart: (product: Product) => void;
  onBuyNow: (product: Product) => void;
};

/** A card's width in the product grid (two columns on phones, 14rem columns stretched a little beyond). */
const CARD_IMAGE_SIZES = '(max-width: 479px) 50vw, 20rem';

// Reviews are not collected per product yet; the seed fixes what the card shows.
const FIXED_RATING = '4.5';
const FIXED_REVIEW_COUNT = '(0 Reviews)';

export function ProductCard({ product, onAddToCart, onBuyNow }: { product: Product } & ProductCardActions) {
  const outOfStock = isOutOfStock(product);
  const href = paths.product.getHref(product.id);
  const category = product.category.trim();

  return (
    <article className={styles.card} aria-label={product.name}>
      <Link to={href} className={styles.media} tabIndex={-1} aria-hidden="true">
        <ProductImage image={product.image} alt={product.name} className={styles.image} sizes={CARD_IMAGE_SIZES} />
      </Link>
      <div className={styles.badges}>
        {category ? <span className="badge">{category}</span> : null}
        {outOfStock ? <span className="badge badge-danger">Out of Stock</span> : null}
      </div>
      <div className={styles.body}>
        <h3 className={styles.name}>
          <Link to={href} title={product.name}>
            {product.name}
          </Link>
        </h3>
        <p className={styles.rating}>
          <StarIcon width={14} height={14} className={styles.star} />
          <span>{FIXED_RATING}</span>
          <span className={styles.reviews}>{FIXED_REVIEW_COUNT}</span>
        </p>
        <p className={styles.price}>{formatRupees(product.price)}</p>
        <div className={styles.actions}>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={outOfStock}
            onClick={() => onAddToCart(product)}
          >
            Add to Cart
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={outOfStock}
            onClick={() => onBuyNow(product)}
          >
            Buy Now
          </button>
        </div>
      </div>
    </article>
  );
}
