import { useId, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { DeliveryStatusBadge } from '@/components/orders/delivery-status-badge';
import { PageHeader } from '@/components/layout/page-header';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { LoadedList } from '@/components/ui/loaded-list';
import { formatRupees } from '@/lib/money';
import { deliveryAddress } from '@/types/order';
import {
  useDeleteOrderMutation,
  useGetAdminOrdersQuery,
  useMarkOrderSeenMutation,
  useUpdateOrderStatusMutation,
} from '../api/orders-api';
import type { Order } from '@/types/order';
import { canDeleteOrder, isSettableDeliveryStatus, SETTABLE_DELIVERY_STATUSES } from '../orders';
import styles from './admin-orders.module.css';
import { OrderHistory } from './order-history';

const dateTime = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function formatCreatedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : dateTime.format(date);
}

function OrderCard({ order, onDelete }: { order: Order; onDelete: (order: Order) => void }) {
  const dispatch = useAppDispatch();
  const selectId = useId();
  const historyId = useId();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [updateStatus, statusState] = useUpdateOrderStatusMutation();
  const [markSeen, seenState] = useMarkOrderSeenMutation();

  const changeStatus = async (value: string) => {
    if (!isSettableDeliveryStatus(value) || value === order.deliveryStatus) return;
    try {
      await updateStatus({ orderNumber: order.orderNumber, deliveryStatus: value }).unwrap();
    } catch (error) {
      dispatch(failureShown('Failed to update status', error));
    }
  };

  const markAsSeen = async () => {
    try {
      await markSeen(order.orderNumber).unwrap();
    } catch (error) {
      dispatch(failureShown('Failed to mark seen', error));
    }
  };

  return (
    <li>
      <article className={styles.order} aria-label={`Order ${order.orderNumber}`}>
        <header className={styles.orderHeader}>
          <div>
            <h2 className={styles.orderNumber}>{order.orderNumber}</h2>
            <p className={styles.muted}>{formatCreatedAt(order.createdAt)}</p>
          </div>
          <div className={styles.badges}>
            {order.seen ? null : <span className={styles.new}>New</span>}
            <DeliveryStatusBadge status={order.deliveryStatus} />
          </div>
        </header>
        <div className={styles.actions}>
          <div className={styles.statusField}>
            <label htmlFor={selectId} className="field-label">
              Delivery status
            </label>
            <select
              id={selectId}
              className="input"
              value={order.deliveryStatus}
              disabled={statusState.isLoading}
              onChange={(event) => void changeStatus(event.target.value)}
            >
              {isSettableDeliveryStatus(order.deliveryStatus) ? null : (
                <option value={order.deliveryStatus} disabled>
                  {order.deliveryStatus}
                </option>
              )}
              {SETTABLE_DELIVERY_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => void markAsSeen()}
            disabled={order.seen || seenState.isLoading}
          >
            {order.seen ? 'Seen' : 'Mark Seen'}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label={`History of ${order.orderNumber}`}
            aria-expanded={historyOpen}
            aria-controls={historyOpen ? historyId : undefined}
            onClick={() => setHistoryOpen((open) => !open)}
          >
            History
          </button>
          {canDeleteOrder(order) ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => onDelete(order)}>
              Delete
            </button>
          ) : null}
        </div>

        <dl className={styles.facts}>
          <div>
            <dt>Customer</dt>
            <dd>
              {order.customerName || '—'}
              <br />
              {order.customerPhone || '—'}
              <br />
              {order.customerEmail || '—'}
            </dd>
          </div>
          <div>
            <dt>Address</dt>
            <dd className={styles.address}>{deliveryAddress(order) || '—'}</dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd>{formatRupees(order.totalAmount)}</dd>
          </div>
          <div>
            <dt>Payment</dt>
            <dd>{order.paymentStatus}</dd>
          </div>
          <div>
            <dt>AWB</dt>
            <dd>{order.shiprocketAWB ?? '—'}</dd>
          </div>
          <div>
            <dt>Tracking URL</dt>
            <dd>
              {order.shiprocketTrackingUrl ? (
                <a href={order.shiprocketTrackingUrl} target="_blank" rel="noreferrer">
                  {order.shiprocketTrackingUrl}
                </a>
              ) : (
                '—'
              )}
            </dd>
          </div>
          <div>
            <dt>Tracking status</dt>
            <dd>{order.shiprocketStatus ?? '—'}</dd>
          </div>
        </dl>

        <ul className={styles.items} aria-label="Items">
          {order.items.map((item, index) => (
            <li key={`${String(item.Product.id)}-${item.size ?? ''}-${item.color ?? ''}-${index}`}>
              <span>
                {item.Product.name || 'Product'} x {item.orderedQuantity}
                {[item.size && ` · Size ${item.size}`, item.color && ` · ${item.color}`].filter(Boolean).join('')}
              </span>
              <span>{formatRupees(item.totalAmount)}</span>
            </li>
          ))}
        </ul>

        {historyOpen ? <OrderHistory id={historyId} orderNumber={order.orderNumber} /> : null}
      </article>
    </li>
  );
}

/**
 * All orders, live from the push stream: delivery status, Mark Seen, History (the order's event timeline,
 * opened in its card) and Delete for delivered orders.
 */
export function AdminOrders() {
  const dispatch = useAppDispatch();
  const orders = useGetAdminOrdersQuery();
  const [deleteOrder] = useDeleteOrderMutation();
  const deletion = useConfirmation(
    async (order: Order) => {
      try {
        await deleteOrder(order.orderNumber).unwrap();
        dispatch(notificationShown({ type: 'success', message: 'Order deleted' }));
      } catch (error) {
        dispatch(failureShown('Failed to delete order', error));
      }
    },
    (order) => ({
      message: `Delete order ${order.orderNumber}? Only delivered orders can be deleted.`,
      confirmLabel: 'Delete',
    }),
  );

  return (
    <section className="container page">
      <PageHeader title="Orders" heading="All Orders" />
      <LoadedList query={orders} error="Failed to load orders" errorClassName={styles.error} empty="No orders yet">
        {(list) => (
          <>
            <p className={styles.muted}>
              {list.length} {list.length === 1 ? 'order' : 'orders'} · updates live
            </p>
            <div className={styles.scrollArea} role="region" aria-label="Orders list" tabIndex={0}>
              <ul className={styles.list}>
                {list.map((order) => (
                  <OrderCard key={order.orderNumber} order={order} onDelete={deletion.ask} />
                ))}
              </ul>
            </div>
          </>
        )}
      </LoadedList>
      {deletion.dialog}
    </section>
  );
}
