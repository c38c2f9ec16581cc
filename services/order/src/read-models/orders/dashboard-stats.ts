import type pg from 'pg';
import { DELIVERY_STATUSES } from '../../order/events.ts';
import { paiseToRupees } from '@shop/shared/money/money';
import { lastIndiaDays } from '@shop/shared/time/india-date';

/** Days of revenue the dashboard shows, ending with today in India. */
export const REVENUE_DAYS = 30;

/** One India-time day of sales. */
export interface DayRevenue {
  /** YYYY-MM-DD, India time (UTC+5:30). */
  date: string;
  /** What the orders placed that day charged, in rupees. */
  revenue: number;
  orders: number;
}

/** The admin dashboard's figures. Revenue is rupees; its Indian digit grouping is the client's job. */
export interface DashboardStats {
  /**
   * Orders on the admin list now: the sum of the status tiles, as the list counts them (a deleted delivered
   * order leaves both). Its sale stays in the revenue figures.
   */
  totalOrders: number;
  /** What every order ever placed charged, in rupees (a deleted delivered order was still sold). */
  totalRevenue: number;
  /** Orders on the admin list now, per delivery status (the three an admin sets are always present). */
  ordersByStatus: Record<string, number>;
  /** Orders on the admin list not yet marked seen. */
  unseenOrders: number;
  /** The last 30 India-time days, oldest first, today last; days without orders are 0. Deleted orders count. */
  revenueByDay: DayRevenue[];
  /** Products in the catalog, delisted ones included (deleted ones not). */
  totalProducts: number;
  /** Products with 1 to 5 units on sale, all sizes together. */
  lowStockProducts: number;
  /** Products with no unit on sale (no general stock and no offered size above 0). */
  outOfStockProducts: number;
  /** Registered accounts, admins included. */
  totalUsers: number;
  /** Testimonials waiting for moderation. */
  pendingTestimonials: number;
}

/**
 * Reads the figures from the order service's own read models (orders, and its projections of the catalog
 * and accounts events), in one statement so they agree with each other. `now` picks India's today.
 */
export async function dashboardStats(db: pg.Pool, now: Date): Promise<DashboardStats> {
  const days = lastIndiaDays(now, REVENUE_DAYS);
  const { rows } = await db.query<{
    orders_listed: bigint;
    revenue_paise: bigint;
    by_status: Array<{ status: string; orders: number; unseen: number }>;
    by_day: Array<{ date: string; orders: number; revenue_paise: number }>;
    products: bigint;
    low_stock: bigint;
    out_of_stock: bigint;
    users: bigint;
    pending_testimonials: bigint;
  }>(
    `SELECT (SELECT count(*) FROM orders.orders) AS orders_listed,
            coalesce((SELECT revenue_paise FROM orders.order_totals WHERE id), 0) AS revenue_paise,
            coalesce((SELECT json_agg(json_build_object('status', delivery_status, 'orders', n, 'unseen', u))
                        FROM (SELECT delivery_status, count(*) AS n, count(*) FILTER (WHERE NOT seen) AS u
                                FROM orders.orders GROUP BY delivery_status) s), '[]') AS by_status,
            coalesce((SELECT json_agg(json_build_object('date', placed_on, 'orders', n, 'revenue_paise', r))
                        FROM (SELECT placed_on, count(*) AS n, sum(total_paise) AS r FROM orders.order_revenue
                               WHERE placed_on BETWEEN $1::date AND $2::date GROUP BY placed_on) d), '[]') AS by_day,
            (SELECT count(*) FROM orders.dashboard_products WHERE NOT deleted) AS products,
            (SELECT count(*) FROM orders.dashboard_products WHERE NOT deleted AND units BETWEEN 1 AND 5) AS low_stock,
            (SELECT count(*) FROM orders.dashboard_products WHERE NOT deleted AND units <= 0) AS out_of_stock,
            (SELECT count(*) FROM orders.dashboard_users) AS users,
            (SELECT count(*) FROM orders.dashboard_testimonials WHERE status = 'pending') AS pending_testimonials`,
    [days[0], days[days.length - 1]],
  );
  const r = rows[0]!;
  const ordersByStatus: Record<string, number> = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0]));
  let unseenOrders = 0;
  for (const s of r.by_status) {
    ordersByStatus[s.status] = s.orders;
    unseenOrders += s.unseen;
  }
  const byDay = new Map(r.by_day.map((d) => [d.date, d]));
  return {
    totalOrders: Number(r.orders_listed),
    totalRevenue: paiseToRupees(r.revenue_paise),
    ordersByStatus,
    unseenOrders,
    revenueByDay: days.map((date) => {
      const d = byDay.get(date);
      return { date, revenue: paiseToRupees(d?.revenue_paise ?? 0), orders: d?.orders ?? 0 };
    }),
    totalProducts: Number(r.products),
    lowStockProducts: Number(r.low_stock),
    outOfStockProducts: Number(r.out_of_stock),
    totalUsers: Number(r.users),
    pendingTestimonials: Number(r.pending_testimonials),
  };
}
