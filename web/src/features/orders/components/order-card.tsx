import { DeliveryStatusBadge } from '@/components/orders/delivery-status-badge';
import { RefundFact } from '@/components/orders/order-refund';
import { formatRupees } from '@/lib/money';
import { chargeRows } from '@/lib/order-totals';
import { deliveryAddress, SHIPMENT_CANCELED } from '@/types/order';
import type { Order } from '@/types/order';
import { orderTotals } from '../order-schema';
import styles from './order-card.module.css';

const placedAt = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function formatPlacedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : placedAt.format(date);
}

/**
 * One order as its buyer sees it: number, date, delivery status, lines, totals, payment (and a cancelled
 * order's refund), its shipment (AWB, tracking status and page, once made; no page once it is cancelled) and address; "Cancel order" while
 * the shop still lets them cancel (`onCancel` asks first).
 */
export function OrderCard({ order, onCancel }: { order: Order; onCancel?: (order: Order) => void }) {
  const totals = orderTotals(order);
  return (
    <article className={styles.order} aria-label={`Order ${order.orderNumber}`}>
      <header className={styles.orderHeader}>
        <div>
          <h2 className={styles.orderNumber}>Order {order.orderNumber}</h2>
          <p className={styles.muted}>Placed {formatPlacedAt(order.createdAt)}</p>
        </div>
        <div className={styles.status}>
          <DeliveryStatusBadge status={order.deliveryStatus} />
          {order.canCancel && onCancel ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => onCancel(order)}>
              Cancel order
            </button>
          ) : null}
        </div>
      </header>

      <ul className={styles.lines} aria-label="Items">
        {order.items.map((line, index) => (
          <li key={`${line.Product.id ?? index}-${line.size ?? ''}-${line.color ?? ''}`} className={styles.line}>
            <span className={styles.lineName}>
              {line.Product.name || 'Product'}
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
          {chargeRows({ shippingCharge: order.shippingCharge ?? 0, deliveryCharge: order.deliveryCharge ?? 0 }).map(
            (charge) => (
              <div key={charge.label}>
                <dt>{charge.label}</dt>
                <dd>{charge.amount > 0 ? formatRupees(charge.amount) : 'Free'}</dd>
              </div>
            ),
          )}
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
          {order.shiprocketAWB ? (
            <div>
              <dt>Shipment</dt>
              <dd>
                AWB {order.shiprocketAWB}
                {order.shiprocketStatus ? <span className={styles.muted}> · {order.shiprocketStatus}</span> : null}
                {order.shiprocketTrackingUrl && order.shiprocketStatus !== SHIPMENT_CANCELED ? (
                  <>
                    <br />
                    <a href={order.shiprocketTrackingUrl} target="_blank" rel="noreferrer">
                      Track your parcel
                    </a>
                  </>
                ) : null}
              </dd>
            </div>
          ) : null}
          <RefundFact refund={order.refund} />
          <div>
            <dt>Deliver to</dt>
            <dd>
              {order.customerName}
              {order.customerPhone ? `, ${order.customerPhone}` : ''}
              <br />
              {deliveryAddress(order)}
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
