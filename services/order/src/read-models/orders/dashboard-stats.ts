import type pg from 'pg';
import { DELIVERY_STATUSES } from '../../order/events.ts';
import { paiseToRupees } from '@shop/shared/money/money';

/** The admin dashboard's order figures. Revenue is rupees; its Indian digit grouping is the client's job. */
export interface DashboardStats {
  /** Orders ever placed (a deleted delivered order still counts: it was sold). */
  totalOrders: number;
  /** Sum of what those orders charged, in rupees. */
  totalRevenue: number;
  /** Orders on the admin list now, per delivery status (the three an admin sets are always present). */
  ordersByStatus: Record<string, number>;
  /** Orders on the admin list not yet marked seen. */
  unseenOrders: number;
}

/** Reads the figures from the orders projection, in one statement so they agree with each other. */
export async function dashboardStats(db: pg.Pool): Promise<DashboardStats> {
  const { rows } = await db.query<{
    orders_placed: bigint;
    revenue_paise: bigint;
    by_status: Array<{ status: string; orders: number; unseen: number }>;
  }>(
    `SELECT coalesce((SELECT orders_placed FROM orders.order_totals WHERE id), 0) AS orders_placed,
            coalesce((SELECT revenue_paise FROM orders.order_totals WHERE id), 0) AS revenue_paise,
            coalesce((SELECT json_agg(json_build_object('status', delivery_status, 'orders', n, 'unseen', u))
                        FROM (SELECT delivery_status, count(*) AS n, count(*) FILTER (WHERE NOT seen) AS u
                                FROM orders.orders GROUP BY delivery_status) s), '[]') AS by_status`,
  );
  const r = rows[0]!;
  const ordersByStatus: Record<string, number> = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0]));
  let unseenOrders = 0;
  for (const s of r.by_status) {
    ordersByStatus[s.status] = s.orders;
    unseenOrders += s.unseen;
  }
  return {
    totalOrders: Number(r.orders_placed),
    totalRevenue: paiseToRupees(r.revenue_paise),
    ordersByStatus,
    unseenOrders,
  };
}
