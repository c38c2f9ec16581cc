import { Link } from 'react-router-dom';
import { DeliveryStatusBadge } from '@/components/orders/delivery-status-badge';
import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/money';
import { useGetMyOrdersQuery } from '../api/orders-api';
import { useMyOrdersStream } from '../hooks/use-my-orders-stream';
import { orderTotals, type Order } from '../order-schema';
import styles from './my-orders-page.module.css';

const placedAt = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function formatPlacedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : placedAt.format(date);
}

function OrderCard({ order }: { order: Order }) {
  const totals = orderTotals(order);
  return (
    <article className={styles.order} aria-label={`Order ${order.orderNumber}`}>
      <header className={styles.orderHeader}>
        <div>
          <h2 className={styles.orderNumber}>Order {order.orderNumber}</h2>
          <p className={styles.muted}>Placed {formatPlacedAt(order.createdAt)}</p>
        </div>
        <DeliveryStatusBadge status={order.deliveryStatus} />
      </header>

      <ul className={styles.lines} aria-label="Items">
        {order.items.map((line, index) => (
          <li key={`${line.Product?.id ?? index}-${line.size ?? ''}-${line.color ?? ''}`} className={styles.line}>
            <span className={styles.lineName}>
              {line.Product?.name || 'Product'}
              <span className={styles.muted}>
                {[line.size && `Size ${line.size}`, line.color, `Qty ${line.orderedQuantity}`]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </span>
            <span className={styles.amount}>{formatRupees(line.totalAmount)}</span>
          </li>
        ))}
      </ul>

      <div className={styles.footer}>
        <dl className={styles.totals}>
          <div>
            <dt>Subtotal</dt>
            <dd>{formatRupees(totals.subtotal)}</dd>
          </div>
          <div>
            <dt>Discount{order.couponCode ? ` (${order.couponCode})` : ''}</dt>
            <dd>{totals.discount > 0 ? `-${formatRupees(totals.discount)}` : formatRupees(0)}</dd>
          </div>
          <div>
            <dt>Delivery</dt>
            <dd>{totals.delivery > 0 ? formatRupees(totals.delivery) : 'Free'}</dd>
          </div>
          <div className={styles.grandTotal}>
            <dt>Total</dt>
            <dd>{formatRupees(totals.total)}</dd>
          </div>
        </dl>
        <dl className={styles.details}>
          <div>
            <dt>Payment</dt>
            <dd>
              {order.paymentStatus}
              {order.razorpayPaymentId ? <span className={styles.muted}> ({order.razorpayPaymentId})</span> : null}
            </dd>
          </div>
          <div>
            <dt>Deliver to</dt>
            <dd>
              {order.customerName}
              {order.customerPhone ? `, ${order.customerPhone}` : ''}
              <br />
              {order.address}
              {order.pincode ? ` - ${order.pincode}` : ''}
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}

/** The logged-in shopper's own orders, newest first, kept live from the push stream. */
export function MyOrdersPage() {
  const { data: orders, isLoading, isError, error, refetch } = useGetMyOrdersQuery();
  const stream = useMyOrdersStream();

  return (
    <section className="container page">
      <PageTitle title="My Orders" />
      <div className={styles.titleRow}>
        <h1 className="page-title">My Orders</h1>
        <span className={styles.live} data-state={stream}>
          {stream === 'live' ? 'Live updates on' : stream === 'connecting' ? 'Connecting...' : 'Reconnecting...'}
        </span>
      </div>
      {isLoading ? (
        <Spinner label="Loading orders..." />
      ) : isError ? (
        <div className="empty-state">
          <p>{errorMessage(error, 'Failed to load orders')}</p>
          <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : !orders || orders.length === 0 ? (
        <div className="empty-state">
          <p>You have not placed any orders yet.</p>
          <Link to={paths.products.getHref()} className="btn btn-primary">
            Start Shopping
          </Link>
        </div>
      ) : (
        <div className={styles.list}>
          {orders.map((order) => (
            <OrderCard key={order.orderNumber} order={order} />
          ))}
        </div>
      )}
    </section>
  );
}
