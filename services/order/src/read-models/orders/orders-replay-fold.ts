import { defineReplayFold, greatestTime, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import type { OrderEvent } from '../../order/events.ts';
import { indiaDate } from '@shop/shared/time/india-date';
import { ORDER_COLUMNS, orderPlacedValues } from './orders-projection.ts';

/**
 * The replay's in-memory fold of orders.orders (orders-projection.ts): orders.orders, orders.order_totals and
 * orders.order_revenue. (The order-change pushes of handle() are not rows: a replay announces nothing.)
 */
export function ordersReplayFold(): ReplayFold {
  const orders = new KeyedRows('orders.orders', ORDER_COLUMNS);
  /** The one row of orders.order_totals (id true), under the key ''. */
  const totals = new KeyedRows('orders.order_totals', ['id', 'orders_placed', 'revenue_paise', 'updated_at']);
  const revenue = new KeyedRows('orders.order_revenue', ['order_number', 'placed_on', 'total_paise']);
  /** INSERT (true, 1, total, at) ... ON CONFLICT DO UPDATE: one more order, its revenue, the latest time. */
  const countPlaced = (totalPaise: number, at: string) => {
    if (totals.insert('', [true, 1, totalPaise, at])) return;
    totals.add('', 'orders_placed', 1);
    totals.add('', 'revenue_paise', totalPaise);
    totals.update('', { updated_at: greatestTime(totals.get('', 'updated_at') as string, at) });
  };
  return defineReplayFold<OrderEvent>({
    on: {
      OrderPlaced(d) {
        if (orders.insert(d.orderNumber, [...orderPlacedValues(d), false, d.placedAt, d.placedAt]))
          countPlaced(d.totalPaise, d.placedAt);
        revenue.insert(d.orderNumber, [d.orderNumber, indiaDate(d.placedAt), d.totalPaise]);
      },
      DeliveryStatusChanged(d) {
        orders.update(d.orderNumber, { delivery_status: d.to, updated_at: d.changedAt });
      },
      OrderMarkedSeen(d) {
        orders.update(d.orderNumber, { seen: true, updated_at: d.seenAt });
      },
      OrderDeleted(d) {
        orders.delete(d.orderNumber);
      },
    },
    tables: [orders, totals, revenue],
  });
}
