import { Link } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useGetMyOrdersQuery } from '../api/orders-api';
import { useMyOrdersStream } from '../hooks/use-my-orders-stream';
import { OrderCard } from './order-card';
import styles from './my-orders-page.module.css';

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
