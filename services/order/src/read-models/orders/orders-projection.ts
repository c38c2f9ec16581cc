import { defineReadModel, readModelConsumer, type ReadModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import { greatestTime } from '@shop/shared/replay/fold';
import type { PubSub } from '@shop/shared/cache/types';
import { CANCELLED, SHIPMENT_CANCELED, type OrderEvent } from '../../order/events.ts';
import { encodeOrderChanges, ORDER_CHANGES_CHANNEL, type OrderChange } from '../../push/order-changes.ts';
import { indiaDate } from '@shop/shared/time/india-date';

/** orders.orders' columns in table order; orderPlacedValues fills order_number to delivery_status. */
export const ORDER_COLUMNS = [
  'order_number',
  'user_id',
  'razorpay_order_id',
  'razorpay_payment_id',
  'customer_name',
  'customer_email',
  'customer_phone',
  'address',
  'pincode',
  'items',
  'subtotal_paise',
  'coupon_code',
  'discount_paise',
  'shipping_charge_paise',
  'delivery_charge_paise',
  'total_paise',
  'payment_status',
  'delivery_status',
  'seen',
  'created_at',
  'updated_at',
  'shiprocket_awb',
  'shiprocket_tracking_url',
  'shiprocket_status',
  'cancel_reason',
  'cancelled_at',
  'refund_status',
  'refund_amount_paise',
  'refund_id',
  'shiprocket_status_at',
  'shipment_refused_reason',
] as const;

/** An OrderPlaced's values for orders.orders, order_number to delivery_status . */
export const orderPlacedValues = (d: Extract<OrderEvent, { type: 'OrderPlaced' }>['data']) => [
  d.orderNumber,
  d.userId,
  d.razorpayOrderId,
  d.razorpayPaymentId,
  d.customer.name,
  d.customer.email,
  d.customer.phone,
  d.address,
  d.pincode,
  JSON.stringify(d.lines),
  d.subtotalPaise,
  d.couponCode,
  d.discountPaise,
  d.shippingChargePaise,
  d.deliveryChargePaise,
  d.totalPaise,
  d.paymentStatus,
  d.deliveryStatus,
];

export const ORDERS_PROJECTION = 'orders.orders';
/** A cancelled order's refund: asked of the provider, then taken (also its paymentStatus then). */
export const REFUND_PENDING = 'Pending';
export const REFUNDED = 'Refunded';

const tables = {
  orders: table('orders.orders', { key: ['order_number'], columns: ORDER_COLUMNS }),
  /** The one row of orders.order_totals (id true). */
  totals: table('orders.order_totals', {
    key: ['id'],
    columns: ['id', 'orders_placed', 'revenue_paise', 'updated_at'],
  }),
  revenue: table('orders.order_revenue', {
    key: ['order_number'],
    columns: ['order_number', 'placed_on', 'total_paise'],
  }),
};

/**
 * orders.orders (one row per order on the list; OrderDeleted drops it), orders.order_totals (orders
 * placed and revenue) and orders.order_revenue (each order's India-time day and total), which deleting a
 * delivered order does not undo; a refund takes its amount off both. Deterministic: every time written comes from an event. Each handled event
 * returns the order it changed.
 */
export const ordersReadModel = defineReadModel<OrderEvent, typeof tables, OrderChange>({
  name: ORDERS_PROJECTION,
  schema: 'orders',
  sources: ['orders'],
  tables,
  evolve: {
    OrderPlaced(d, { orders, totals, revenue }) {
      const values = orderPlacedValues(d);
      const placed = orders.insert({
        ...(Object.fromEntries(values.map((v, i) => [ORDER_COLUMNS[i], v])) as Record<OrderColumn, unknown>),
        seen: false,
        created_at: d.placedAt,
        updated_at: d.placedAt,
      });
      if (placed) {
        // One more order, its revenue, the latest time.
        const now = totals.get(true);
        if (now)
          totals.update(true, {
            orders_placed: (now.orders_placed as number) + 1,
            revenue_paise: (now.revenue_paise as number) + d.totalPaise,
            updated_at: greatestTime(now.updated_at as string, d.placedAt),
          });
        else totals.insert({ id: true, orders_placed: 1, revenue_paise: d.totalPaise, updated_at: d.placedAt });
      }
      // Revenue per India-time day; kept, like order_totals, when a delivered order is deleted.
      revenue.insert({ order_number: d.orderNumber, placed_on: indiaDate(d.placedAt), total_paise: d.totalPaise });
      return { orderNumber: d.orderNumber, userId: d.userId, deleted: false };
    },
    DeliveryStatusChanged(d, { orders }) {
      orders.update(d.orderNumber, { delivery_status: d.to, updated_at: d.changedAt });
      return changed(orders.get(d.orderNumber), d.orderNumber);
    },
    OrderMarkedSeen(d, { orders }) {
      orders.update(d.orderNumber, { seen: true, updated_at: d.seenAt });
      return changed(orders.get(d.orderNumber), d.orderNumber);
    },
    ShipmentCreated(d, { orders }) {
      orders.update(d.orderNumber, {
        shiprocket_awb: d.awb,
        shiprocket_tracking_url: d.trackingUrl,
        shiprocket_status: d.shippingStatus,
        shiprocket_status_at: d.createdAt,
        // A shipment made after a refusal: nothing is refused any more.
        shipment_refused_reason: null,
        updated_at: d.createdAt,
      });
      return changed(orders.get(d.orderNumber), d.orderNumber);
    },
    ShipmentRefused(d, { orders }) {
      const row = orders.get(d.orderNumber);
      if (row)
        orders.update(d.orderNumber, {
          shipment_refused_reason: d.reason,
          updated_at: greatestTime(row.updated_at as string, d.at),
        });
      return changed(row, d.orderNumber);
    },
    ShippingStatusUpdated(d, { orders }) {
      const row = orders.get(d.orderNumber);
      if (row)
        orders.update(d.orderNumber, {
          shiprocket_status: d.shippingStatus,
          // The latest tracking news (the tracking sweep asks about shipments with none for a while).
          shiprocket_status_at: greatestTime(row.shiprocket_status_at as string | null, d.updatedAt),
          updated_at: greatestTime(row.updated_at as string, d.updatedAt),
        });
      return changed(row, d.orderNumber);
    },
    OrderCancelled(d, { orders }) {
      orders.update(d.orderNumber, {
        delivery_status: CANCELLED,
        cancel_reason: d.reason,
        cancelled_at: d.cancelledAt,
        refund_status: REFUND_PENDING,
        refund_amount_paise: d.totalPaise,
        updated_at: d.cancelledAt,
      });
      return changed(orders.get(d.orderNumber), d.orderNumber);
    },
    ShipmentCancelled(d, { orders }) {
      const row = orders.get(d.orderNumber);
      if (row)
        orders.update(d.orderNumber, {
          shiprocket_status: SHIPMENT_CANCELED,
          updated_at: greatestTime(row.updated_at as string, d.cancelledAt),
        });
      return changed(row, d.orderNumber);
    },
    OrderRefunded(d, { orders, totals, revenue }) {
      // Revenue is what the shop keeps: a refund takes its amount off the totals and off the order's day (the
      // order still counts as placed).
      const now = totals.get(true);
      if (now) totals.update(true, { revenue_paise: (now.revenue_paise as number) - d.amountPaise });
      const day = revenue.get(d.orderNumber);
      if (day) revenue.update(d.orderNumber, { total_paise: (day.total_paise as number) - d.amountPaise });
      orders.update(d.orderNumber, {
        payment_status: REFUNDED,
        refund_status: REFUNDED,
        refund_amount_paise: d.amountPaise,
        refund_id: d.refundId,
        updated_at: d.refundedAt,
      });
      return changed(orders.get(d.orderNumber), d.orderNumber);
    },
    OrderDeleted(d, { orders }) {
      const row = orders.get(d.orderNumber);
      orders.delete(d.orderNumber);
      return changed(row, d.orderNumber, true);
    },
  },
});

type OrderColumn = (typeof ORDER_COLUMNS)[number];

/** An order's change, with the user of its row (null when there was none). */
const changed = (row: { user_id: unknown } | undefined, orderNumber: string, deleted = false): OrderChange => ({
  orderNumber,
  userId: (row?.user_id as string | null | undefined) ?? null,
  deleted,
});

/**
 * orders.orders' live consumer: after each commit the changes are announced on pub/sub, so the push
 * streams of every process (this one included) can send them.
 */
export function ordersProjection(pubsub: PubSub): ReadModelConsumer<OrderChange> {
  return readModelConsumer(ordersReadModel, async (changes) => {
    // A failure is logged by the bus and not retried: the read model is committed, only this push is lost.
    await pubsub.publish(ORDER_CHANGES_CHANNEL, encodeOrderChanges(changes));
  });
}
