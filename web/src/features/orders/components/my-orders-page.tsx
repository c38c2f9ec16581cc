import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { PageTitle } from '@/components/seo/page-title';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import type { Order } from '@/types/order';
import { useCancelMyOrderMutation, useGetMyOrdersQuery } from '../api/orders-api';
import { useMyOrdersStream } from '../hooks/use-my-orders-stream';
import { OrderCard } from './order-card';
import styles from './my-orders-page.module.css';

/**
 * The logged-in shopper's own orders, newest first, kept live from the push stream; an order still being
 * processed can be cancelled (after a confirmation), and is then refunded.
 */
export function MyOrdersPage() {
  const dispatch = useAppDispatch();
  const { data: orders, isLoading, isError, error, refetch } = useGetMyOrdersQuery();
  const stream = useMyOrdersStream();
  const [cancelOrder] = useCancelMyOrderMutation();
  const cancellation = useConfirmation(
    async (order: Order) => {
      try {
        await cancelOrder(order.orderNumber).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Order cancelled. Your payment will be refunded.' }));
      } catch (failure) {
        dispatch(failureShown('Failed to cancel order', failure));
      }
    },
    (order) => ({
      message: `Cancel order ${order.orderNumber}? The payment will be refunded to you.`,
      confirmLabel: 'Cancel order',
      cancelLabel: 'Keep order',
    }),
  );

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
            <OrderCard key={order.orderNumber} order={order} onCancel={cancellation.ask} />
          ))}
        </div>
      )}
      {cancellation.dialog}
    </section>
  );
}
