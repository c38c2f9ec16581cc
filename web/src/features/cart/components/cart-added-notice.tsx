import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { CloseIcon } from '@/components/ui/icons';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { paths } from '@/config/paths';
import { formatRupees } from '@/lib/money';
import { cartNoticeClosed, selectCartLineCount, selectNoticeLine } from '../cart-slice';
import styles from './cart-added-notice.module.css';

/** Floating notice for the item just added, with the live cart count and a link to the cart. */
export function CartAddedNotice() {
  const dispatch = useAppDispatch();
  const line = useAppSelector(selectNoticeLine);
  const lineCount = useAppSelector(selectCartLineCount);
  if (!line) return null;

  return (
    <aside className={styles.notice} aria-label="Added to cart" aria-live="polite">
      <ProductImage image={line.image} alt={line.name} className={styles.image} sizes={THUMBNAIL_SIZES} />
      <div className={styles.text}>
        <p className={styles.added}>Added! ({line.quantity} total)</p>
        <p className={styles.name}>{line.name}</p>
        <p className={styles.price}>
          {formatRupees(line.price)} x {line.quantity}
        </p>
        <p className={styles.count}>
          {lineCount} {lineCount === 1 ? 'item' : 'items'} in cart
        </p>
      </div>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.close}
          aria-label="Close cart notice"
          onClick={() => dispatch(cartNoticeClosed())}
        >
          <CloseIcon width={16} height={16} />
        </button>
        <Link to={paths.cart.getHref()} className="btn btn-primary btn-sm" onClick={() => dispatch(cartNoticeClosed())}>
          View
        </Link>
      </div>
    </aside>
  );
}
