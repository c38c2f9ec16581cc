import { useId, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { DeliveryStatusBadge } from '@/components/orders/delivery-status-badge';
import { PageHeader } from '@/components/layout/page-header';
import { useConfirmation } from '@/components/ui/confirm-dialog';
import { LoadedList } from '@/components/ui/loaded-list';
import { StatusPill } from '@/components/ui/status-pill';
import { formatRupees } from '@/lib/money';
import { deliveryAddress } from '@/types/order';
import { RefundFact } from '@/components/orders/order-refund';
import {
  useCancelOrderMutation,
  useDeleteOrderMutation,
  useGetAdminOrdersQuery,
  useMarkOrderSeenMutation,
  useUpdateOrderStatusMutation,
} from '../api/orders-api';
import type { Order } from '@/types/order';
import {
  CANCELLED,
  canCancelOrder,
  canDeleteOrder,
  isSettableDeliveryStatus,
  SETTABLE_DELIVERY_STATUSES,
  shipmentProblemText,
  shippingNeedsAction,
} from '../orders';
import styles from './admin-orders.module.css';
import { OrderHistory } from './order-history';

const dateTime = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function formatCreatedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : dateTime.format(date);
}

/**
 * Cancelling an order with a reason (required): the reason field and the confirmation, in the order's card.
 * The order then shows Cancelled (red) and its refund.
 */
function CancelOrderForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [cancelOrder, cancelState] = useCancelOrderMutation();

  const submit = async () => {
    if (!reason.trim()) {
      setProblem('A reason is required to cancel an order');
      return;
    }
    try {
      await cancelOrder({ orderNumber: order.orderNumber, reason: reason.trim() }).unwrap();
      dispatch(notificationShown({ type: 'success', message: `Order ${order.orderNumber} cancelled; refund issued` }));
      onDone();
    } catch (error) {
      dispatch(failureShown('Failed to cancel order', error));
    }
  };

  return (
    <form
      className={styles.cancelForm}
      aria-label={`Cancel ${order.orderNumber}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={reasonId} className="field-label">
        Reason for cancelling
      </label>
      <textarea
        id={reasonId}
        className="input"
        rows={2}
        maxLength={500}
        value={reason}
        aria-invalid={problem ? true : undefined}
        onChange={(event) => {
          setReason(event.target.value);
          setProblem(null);
        }}
      />
      {problem ? (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      ) : null}
      <p className={styles.muted}>
        The stock goes back and the payment of {formatRupees(order.totalAmount)} is refunded.
      </p>
      <div className={styles.actions}>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDone} disabled={cancelState.isLoading}>
          Keep order
        </button>
        <button type="submit" className={`btn btn-sm ${styles.danger}`} disabled={cancelState.isLoading}>
          Cancel and refund
        </button>
      </div>
    </form>
  );
}

function OrderCard({ order, onDelete }: { order: Order; onDelete: (order: Order) => void }) {
  const dispatch = useAppDispatch();
  const selectId = useId();
  const historyId = useId();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [updateStatus, statusState] = useUpdateOrderStatusMutation();
  const [markSeen, seenState] = useMarkOrderSeenMutation();
  const shipmentProblem = shipmentProblemText(order);

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
              disabled={statusState.isLoading || order.deliveryStatus === CANCELLED}
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
          {canCancelOrder(order) && !cancelling ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setCancelling(true)}>
              Cancel order
            </button>
          ) : null}
          {canDeleteOrder(order) ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => onDelete(order)}>
              Delete
            </button>
          ) : null}
        </div>

        {cancelling && canCancelOrder(order) ? (
          <CancelOrderForm order={order} onDone={() => setCancelling(false)} />
        ) : null}

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
          {order.cancelReason ? (
            <div>
              <dt>Cancelled</dt>
              <dd>{order.cancelReason}</dd>
            </div>
          ) : null}
          <RefundFact refund={order.refund} />
          {shipmentProblem ? (
            <div className={styles.shipmentProblem}>
              <dt>Shipment</dt>
              <dd className={styles.trackingStatus}>
                <StatusPill tone="danger">Needs action</StatusPill>
                <span>{shipmentProblem}</span>
              </dd>
            </div>
          ) : null}
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
            <dd className={styles.trackingStatus}>
              {order.shiprocketStatus ?? '—'}
              {shippingNeedsAction(order.shiprocketStatus) ? <StatusPill tone="danger">Needs action</StatusPill> : null}
            </dd>
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
 * opened in its card), Cancel order (with a reason) for orders not delivered, and Delete for delivered ones.
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
