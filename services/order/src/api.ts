import { z } from 'zod';
import { STREAM_TICKET_SECONDS } from '@shop/shared/auth/tokens';
import { orderHistory } from '@shop/shared/audit/event-history';
import type { OrderHistoryParts } from '@shop/shared/contracts/event-history';
import { SHOPPER_CANCEL_REASON } from '@shop/shared/contracts/order-cancellation';
import { NotFoundError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { DELIVERY_STATUSES } from './order/events.ts';
import type { Orders, Written } from './orders.ts';
import type { OrderPushHub } from './push/order-push-hub.ts';
import { dashboardStats } from './read-models/orders/dashboard-stats.ts';
import { ORDERS_PROJECTION } from './read-models/orders/orders-projection.ts';
import { findOrder, listAllOrders, listOrdersOfUser } from './read-models/orders/orders-queries.ts';

const STATUS_MESSAGE = 'deliveryStatus must be Processing, Out for Delivery or Delivered';
export const StatusBody = z.object({ deliveryStatus: z.enum(DELIVERY_STATUSES, STATUS_MESSAGE) }, STATUS_MESSAGE);
export const OrderNumberParam = z.object({
  orderNumber: z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'Bad order number'),
});

const REASON_MESSAGE = 'A reason is required to cancel an order';
export const CancelReasonBody = z.object(
  { reason: z.string(REASON_MESSAGE).trim().min(1, REASON_MESSAGE).max(500, 'Reason must be at most 500 characters') },
  REASON_MESSAGE,
);

/** What the order routes use. */
export type OrdersPorts = Pick<ServiceContext, 'pool' | 'tokens' | 'clock' | 'waitForProjection'> & {
  orders: Orders;
  push: OrderPushHub;
  /** The services' parts of an order's history (the admin timeline). */
  history: OrderHistoryParts;
};

const route = routeOf<OrdersPorts>('order');
const ADMIN = { 401: 'Not signed in', 403: 'Not an admin' } as const;

/** Read-your-writes: the answer (and the admin's next list) shows the command's effect. */
const caughtUp = (ctx: OrdersPorts, written: Written) =>
  awaitReadable(
    ctx,
    { schema: 'orders', consumer: ORDERS_PROJECTION },
    written,
    'Saved, but the order list has not caught up yet; refresh in a moment',
  );
const readBack = async (ctx: OrdersPorts, orderNumber: string) => {
  const order = await findOrder(ctx.pool, orderNumber);
  if (!order) throw new NotFoundError('Order not found');
  return order;
};

/** Routes of the order service: /api/orders/... */
export const ORDERS_API_ROUTES = [
  route({
    method: 'get',
    path: '/api/orders',
    auth: 'user',
    summary: "The signed-in user's orders, newest first",
    owned: true,
    responses: { 200: 'List of orders', 401: 'Not signed in' },
    handler: (ctx) => async (req, res) => {
      res.json(await listOrdersOfUser(ctx.pool, req.user!.id));
    },
  }),

  route({
    method: 'post',
    path: '/api/orders/:orderNumber/cancel',
    auth: 'user',
    summary:
      "Cancel one's own order while it is Processing and not yet shipped: stock and coupon use go back, the payment is refunded",
    owned: true,
    params: OrderNumberParam,
    responses: {
      200: '{message, ...order} (Cancelled, refund Pending until the provider takes it)',
      400: 'Bad order number',
      401: 'Not signed in',
      404: 'Order not found (also when it is not yours)',
      409: 'Already cancelled, or no longer being processed',
      503: 'Cancelled but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { orderNumber } }) => {
        const user = req.user!.id;
        await caughtUp(ctx, await ctx.orders.cancel(orderNumber, 'shopper', user, SHOPPER_CANCEL_REASON));
        res.json({ message: 'Order cancelled', ...(await readBack(ctx, orderNumber)) });
      },
  }),

  /**
   * Push (Server-Sent Events), opened with `new EventSource('/api/orders/stream?ticket=' + ticket)` (a
   * ticket from POST /api/orders/stream-ticket). The shared authenticate() middleware accepts the ticket
   * there, the older `?access_token=`, and `Authorization: Bearer`. Events: `ready`
   * ({userId, isAdmin}) first, after which the client (re)loads its list; then `order` (a full order, or
   * {orderNumber, deleted: true}) for every change it may see, and for admins `stats` (the dashboard
   * figures) once on connect, after each order change and when a product, user or testimonial count changes.
   */
  route({
    method: 'get',
    path: '/api/orders/stream',
    auth: 'user',
    summary:
      'Server-Sent Events: ready, then order (own orders; every order for admins) and stats (admins); signed in by ?ticket= (POST /api/orders/stream-ticket), or the bearer header',
    owned: true,
    stream: true,
    responses: { 200: 'An event stream', 401: 'Not signed in', 429: 'Too many open streams for this account' },
    handler: (ctx) => (req, res) => {
      ctx.push.open(req, res, req.user!);
    },
  }),

  /**
   * A ticket for the push stream: EventSource cannot set headers, so the browser first trades its bearer
   * token for a ticket valid STREAM_TICKET_SECONDS, good for nothing but opening the stream, and sends that
   * in the URL (URLs end up in logs; a 7-day token must not).
   */
  route({
    method: 'post',
    path: '/api/orders/stream-ticket',
    auth: 'user',
    summary:
      'A ticket for the push stream ({ticket, expiresIn: 60}): opens GET /api/orders/stream?ticket= within 60 seconds, good for nothing else',
    responses: { 200: '{ticket, expiresIn}', 401: 'Not signed in' },
    handler: (ctx) => (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ ticket: ctx.tokens.signStreamTicket(req.user!), expiresIn: STREAM_TICKET_SECONDS });
    },
  }),

  route({
    method: 'get',
    path: '/api/orders/admin/all',
    auth: 'admin',
    summary: 'Every order',
    responses: { 200: 'List of orders', ...ADMIN },
    handler: (ctx) => async (_req, res) => {
      res.json(await listAllOrders(ctx.pool));
    },
  }),

  route({
    method: 'get',
    path: '/api/orders/admin/stats',
    auth: 'admin',
    summary: 'Dashboard figures (rupees; 30 India-time days of revenue)',
    responses: { 200: '{totalOrders, totalRevenue, ordersByStatus, unseenOrders, revenueByDay, ...}', ...ADMIN },
    handler: (ctx) => async (_req, res) => {
      res.json(await dashboardStats(ctx.pool, ctx.clock()));
    },
  }),

  /** An order's events in log order (payment stream, stock reservation, order stream) for the admin timeline. */
  route({
    method: 'get',
    path: '/api/orders/admin/:orderNumber/history',
    auth: 'admin',
    summary: "An order's events in log order (payment, stock reservation, order) for the admin timeline",
    params: OrderNumberParam,
    responses: { 200: '{orderNumber, events}', 400: 'Bad order number', ...ADMIN, 404: 'Order not found' },
    handler:
      (ctx) =>
      async (_req, res, { params: { orderNumber } }) => {
        const events = await orderHistory(ctx.history, orderNumber);
        if (!events) throw new NotFoundError('Order not found');
        res.json({ orderNumber, events });
      },
  }),

  route({
    method: 'patch',
    path: '/api/orders/admin/:orderNumber/status',
    auth: 'admin',
    summary: "Change an order's delivery status",
    params: OrderNumberParam,
    body: StatusBody,
    bodyMessage: STATUS_MESSAGE,
    responses: {
      200: '{message, ...order}',
      400: 'deliveryStatus must be Processing, Out for Delivery or Delivered',
      ...ADMIN,
      404: 'Order not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { orderNumber }, body: { deliveryStatus } }) => {
        await caughtUp(ctx, await ctx.orders.changeDeliveryStatus(orderNumber, deliveryStatus, req.user!.id));
        res.json({ message: 'Delivery status updated', ...(await readBack(ctx, orderNumber)) });
      },
  }),

  route({
    method: 'patch',
    path: '/api/orders/admin/:orderNumber/cancel',
    auth: 'admin',
    summary:
      'Cancel an order that has not been delivered, with a reason: stock and coupon use go back, the payment is refunded',
    params: OrderNumberParam,
    body: CancelReasonBody,
    bodyMessage: REASON_MESSAGE,
    responses: {
      200: '{message, ...order} (Cancelled, refund Pending until the provider takes it)',
      400: 'A reason is required to cancel an order',
      ...ADMIN,
      404: 'Order not found',
      409: 'Already cancelled, or delivered',
      503: 'Cancelled but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { orderNumber }, body: { reason } }) => {
        await caughtUp(ctx, await ctx.orders.cancel(orderNumber, 'admin', req.user!.id, reason));
        res.json({ message: 'Order cancelled', ...(await readBack(ctx, orderNumber)) });
      },
  }),

  route({
    method: 'patch',
    path: '/api/orders/admin/:orderNumber/seen',
    auth: 'admin',
    summary: 'Mark an order as seen',
    params: OrderNumberParam,
    responses: {
      200: '{message, ...order}',
      400: 'Bad order number',
      ...ADMIN,
      404: 'Order not found',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { orderNumber } }) => {
        await caughtUp(ctx, await ctx.orders.markSeen(orderNumber, req.user!.id));
        res.json({ message: 'Order marked as seen', ...(await readBack(ctx, orderNumber)) });
      },
  }),

  route({
    method: 'delete',
    path: '/api/orders/admin/:orderNumber',
    auth: 'admin',
    summary: 'Delete a delivered order',
    params: OrderNumberParam,
    responses: {
      200: '{message, orderNumber}',
      400: 'Bad order number',
      ...ADMIN,
      404: 'Order not found',
      409: 'Only delivered orders can be deleted',
      503: 'Deleted but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { params: { orderNumber } }) => {
        await caughtUp(ctx, await ctx.orders.delete(orderNumber, req.user!.id));
        res.json({ message: 'Order deleted', orderNumber });
      },
  }),
];
