import type { ReplayFold } from '@shop/shared/replay/fold';
import { greatestTime } from '@shop/shared/replay/fold';
import type { OrderEvent } from '../../order/events.ts';
import { indiaDate } from './india-days.ts';
import { ORDER_COLUMNS, orderPlacedValues } from './orders-projection.ts';

/**
 * The replay's in-memory fold of orders.orders (orders-projection.ts): orders.orders, orders.order_totals and
 * orders.order_revenue. (The order-change pushes of handle() are not rows: a replay announces nothing.)
 */

const DELIVERY_STATUS = ORDER_COLUMNS.indexOf('delivery_status');
const SEEN = ORDER_COLUMNS.indexOf('seen');
const UPDATED_AT = ORDER_COLUMNS.indexOf('updated_at');

export function ordersReplayFold(): ReplayFold {
  const orders = new Map<string, unknown[]>();
  const revenue = new Map<string, unknown[]>();
  let totals: { orders: number; revenue: number; updatedAt: string } | null = null;
  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as OrderEvent;
      switch (e.type) {
        case 'OrderPlaced': {
          const d = e.data;
          if (!orders.has(d.orderNumber)) {
            orders.set(d.orderNumber, [...orderPlacedValues(d), false, d.placedAt, d.placedAt]);
            totals = totals
              ? {
                  orders: totals.orders + 1,
                  revenue: totals.revenue + d.totalPaise,
                  updatedAt: greatestTime(totals.updatedAt, d.placedAt),
                }
              : { orders: 1, revenue: d.totalPaise, updatedAt: d.placedAt };
          }
          if (!revenue.has(d.orderNumber))
            revenue.set(d.orderNumber, [d.orderNumber, indiaDate(d.placedAt), d.totalPaise]);
          return;
        }
        case 'DeliveryStatusChanged': {
          const row = orders.get(e.data.orderNumber);
          if (row) {
            row[DELIVERY_STATUS] = e.data.to;
            row[UPDATED_AT] = e.data.changedAt;
          }
          return;
        }
        case 'OrderMarkedSeen': {
          const row = orders.get(e.data.orderNumber);
          if (row) {
            row[SEEN] = true;
            row[UPDATED_AT] = e.data.seenAt;
          }
          return;
        }
        case 'OrderDeleted':
          orders.delete(e.data.orderNumber);
          return;
      }
    },
    tables: () => [
      { table: 'orders.orders', columns: ORDER_COLUMNS, rows: orders.values() },
      {
        table: 'orders.order_totals',
        columns: ['id', 'orders_placed', 'revenue_paise', 'updated_at'],
        rows: totals ? [[true, totals.orders, totals.revenue, totals.updatedAt]] : [],
      },
      { table: 'orders.order_revenue', columns: ['order_number', 'placed_on', 'total_paise'], rows: revenue.values() },
    ],
  };
}
