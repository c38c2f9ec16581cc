import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { WithOrderSummary } from '@/components/orders/order-summary';
import { PageTitle } from '@/components/seo/page-title';
import { ProductImage } from '@/components/ui/product-image';
import { THUMBNAIL_SIZES } from '@/lib/image-url';
import { paths } from '@/config/paths';
import { useCalculateDeliveryQuery } from '@/lib/delivery-api';
import { formatRupees } from '@/lib/money';
import { chargeRows, FREE_DELIVERY, orderTotals } from '@/lib/order-totals';
import { cartLineKey, cartLineRemoved, selectCartLines, selectCartSubtotal } from '../cart-slice';
import styles from './cart-page.module.css';

/**
 * The cart lines with Remove and the order summary: subtotal, the shipping and delivery charges from the server
 * named as checkout names them (each 'Free' at 0; a failed lookup counts as free delivery) and the total.
 */
export function CartPage() {
  const dispatch = useAppDispatch();
  const lines = useAppSelector(selectCartLines);
  const subtotal = useAppSelector(selectCartSubtotal);
  const delivery = useCalculateDeliveryQuery(subtotal, { skip: lines.length === 0 });
  const quote = delivery.isError ? FREE_DELIVERY : delivery.data;
  const totals = orderTotals(subtotal, 0, quote);

  if (lines.length === 0) {
    return (
      <section className="container page empty-state">
        <PageTitle title="Cart" />
        <h1 className="page-title">Your cart is empty</h1>
        <Link to={paths.products.getHref()} className="btn btn-primary">
          Start Shopping
        </Link>
      </section>
    );
  }

  return (
    <section className="container page">
      <PageTitle title="Cart" />
      <h1 className="page-title">Your cart</h1>
      <WithOrderSummary
        summary={
          <>
            <p className={styles.row}>
              <span>Subtotal</span>
              <span>{formatRupees(totals.subtotal)}</span>
            </p>
            {chargeRows(totals).map((charge) => (
              <p key={charge.label} className={styles.row}>
                <span>{charge.label}</span>
                <span>{quote ? (charge.amount > 0 ? formatRupees(charge.amount) : 'Free') : '…'}</span>
              </p>
            ))}
            <p className={`${styles.row} ${styles.total}`}>
              <span>Total</span>
              <span>{quote ? formatRupees(totals.total) : '…'}</span>
            </p>
            <Link to={paths.checkout.getHref()} className="btn btn-primary btn-block">
              Proceed to Checkout
            </Link>
          </>
        }
      >
        <ul className={styles.lines}>
          {lines.map((line) => {
            const key = cartLineKey(line);
            return (
              <li key={key} className={styles.line}>
                <ProductImage image={line.image} alt={line.name} className={styles.image} sizes={THUMBNAIL_SIZES} />
                <div className={styles.details}>
                  <Link to={paths.product.getHref(line.id)} className={styles.name}>
                    {line.name}
                  </Link>
                  <p className={styles.meta}>
                    {[line.size && `Size ${line.size}`, line.color].filter(Boolean).join(' · ') || '\u00a0'}
                  </p>
                  <p className={styles.meta}>
                    {formatRupees(line.price)} x {line.quantity}
                  </p>
                </div>
                <p className={styles.lineTotal}>{formatRupees(line.price * line.quantity)}</p>
                <button type="button" className="btn btn-outline btn-sm" onClick={() => dispatch(cartLineRemoved(key))}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      </WithOrderSummary>
    </section>
  );
}
