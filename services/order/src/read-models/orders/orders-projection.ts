import { defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PubSub } from '@shop/shared/cache/types';
import type { OrderEvent } from '../../order/events.ts';
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
] as const;

/** An OrderPlaced's values for orders.orders, order_number to delivery_status (the replay's fold shares them). */
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

/** Runs a statement on one order that returns its user_id, and answers the order's change. */
async function changeOrder(
  tx: Parameters<EventConsumer['handle']>[1],
  orderNumber: string,
  sql: string,
  params: unknown[],
  deleted = false,
): Promise<OrderChange> {
  const { rows } = await tx.query<{ user_id: string | null }>(sql, params);
  return { orderNumber, userId: rows[0]?.user_id ?? null, deleted };
}

/**
 * orders.orders (one row per order on the list; OrderDeleted drops it), orders.order_totals (orders
 * placed and revenue) and orders.order_revenue (each order's India-time day and total), which deleting a
 * delivered order does not undo. Deterministic: every time written
 * comes from an event. Each handled event returns the order it changed; after each commit those changes
 * are announced on pub/sub, so the push streams of every process (this one included) can send them.
 */
export function ordersProjection(pubsub: PubSub): EventConsumer<OrderChange> {
  return defineProjection<OrderEvent, OrderChange>({
    name: ORDERS_PROJECTION,
    schema: 'orders',
    sources: ['orders'],
    on: {
      async OrderPlaced(d, tx) {
        const inserted = await tx.query(
          `INSERT INTO orders.orders (${ORDER_COLUMNS.join(', ')})
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, false, $19, $19)
           ON CONFLICT (order_number) DO NOTHING`,
          [...orderPlacedValues(d), d.placedAt],
        );
        if (inserted.rowCount === 1)
          await tx.query(
            `INSERT INTO orders.order_totals AS t (id, orders_placed, revenue_paise, updated_at) VALUES (true, 1, $1, $2)
             ON CONFLICT (id) DO UPDATE SET orders_placed = t.orders_placed + 1,
               revenue_paise = t.revenue_paise + EXCLUDED.revenue_paise,
               updated_at = greatest(t.updated_at, EXCLUDED.updated_at)`,
            [d.totalPaise, d.placedAt],
          );
        // Revenue per India-time day; kept, like order_totals, when a delivered order is deleted.
        await tx.query(
          `INSERT INTO orders.order_revenue (order_number, placed_on, total_paise) VALUES ($1, $2, $3)
           ON CONFLICT (order_number) DO NOTHING`,
          [d.orderNumber, indiaDate(d.placedAt), d.totalPaise],
        );
        return { orderNumber: d.orderNumber, userId: d.userId, deleted: false };
      },
      DeliveryStatusChanged: (d, tx) =>
        changeOrder(
          tx,
          d.orderNumber,
          `UPDATE orders.orders SET delivery_status = $2, updated_at = $3 WHERE order_number = $1 RETURNING user_id`,
          [d.orderNumber, d.to, d.changedAt],
        ),
      OrderMarkedSeen: (d, tx) =>
        changeOrder(
          tx,
          d.orderNumber,
          `UPDATE orders.orders SET seen = true, updated_at = $2 WHERE order_number = $1 RETURNING user_id`,
          [d.orderNumber, d.seenAt],
        ),
      OrderDeleted: (d, tx) =>
        changeOrder(
          tx,
          d.orderNumber,
          `DELETE FROM orders.orders WHERE order_number = $1 RETURNING user_id`,
          [d.orderNumber],
          true,
        ),
    },
    async afterCommit(changes) {
      // A failure is logged by the bus and not retried: the read model is committed, only this push is lost.
      await pubsub.publish(ORDER_CHANGES_CHANNEL, encodeOrderChanges(changes));
    },
  });
}
