import { Router } from 'express';
import { z } from 'zod';
import { requireAdmin, requireAuth, STREAM_TICKET_SECONDS } from '@shop/shared/auth/tokens';
import { orderHistory } from '@shop/shared/audit/event-history';
import type { OrderHistoryParts } from '@shop/shared/contracts/event-history';
import { NotFoundError } from '@shop/shared/errors/errors';
import { parseInput } from '@shop/shared/http/validation';
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

/** Routes of the order service: /api/orders/... */
export function ordersRouter(
  ctx: ServiceContext,
  deps: { orders: Orders; push: OrderPushHub; history: OrderHistoryParts },
): Router {
  const r = Router();
  const { orders, push } = deps;

  /** Read-your-writes: the answer (and the admin's next list) shows the command's effect. */
  const caughtUp = (written: Written) =>
    awaitReadable(
      ctx,
      { schema: 'orders', consumer: ORDERS_PROJECTION },
      written,
      'Saved, but the order list has not caught up yet; refresh in a moment',
    );
  const readBack = async (orderNumber: string) => {
    const order = await findOrder(ctx.pool, orderNumber);
    if (!order) throw new NotFoundError('Order not found');
    return order;
  };

  r.get('/api/orders', requireAuth, async (req, res) => {
    res.json(await listOrdersOfUser(ctx.pool, req.user!.id));
  });

  /**
   * A ticket for the push stream: EventSource cannot set headers, so the browser first trades its bearer
   * token for a ticket valid STREAM_TICKET_SECONDS, good for nothing but opening the stream, and sends that
   * in the URL (URLs end up in logs; a 7-day token must not).
   */
  r.post('/api/orders/stream-ticket', requireAuth, (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ticket: ctx.tokens.signStreamTicket(req.user!), expiresIn: STREAM_TICKET_SECONDS });
  });

  /**
   * Push (Server-Sent Events), opened with `new EventSource('/api/orders/stream?ticket=' + ticket)` (a
   * ticket from POST /api/orders/stream-ticket). The shared authenticate() middleware accepts the ticket
   * there, the older `?access_token=`, and `Authorization: Bearer`. Events: `ready`
   * ({userId, isAdmin}) first, after which the client (re)loads its list; then `order` (a full order, or
   * {orderNumber, deleted: true}) for every change it may see, and for admins `stats` (the dashboard
   * figures) once on connect, after each order change and when a product, user or testimonial count changes.
   */
  r.get('/api/orders/stream', requireAuth, (req, res) => {
    push.open(req, res, req.user!);
  });

  r.get('/api/orders/admin/all', requireAdmin, async (_req, res) => {
    res.json(await listAllOrders(ctx.pool));
  });

  r.get('/api/orders/admin/stats', requireAdmin, async (_req, res) => {
    res.json(await dashboardStats(ctx.pool, ctx.clock()));
  });

  /** An order's events in log order (payment stream, stock reservation, order stream) for the admin timeline. */
  r.get('/api/orders/admin/:orderNumber/history', requireAdmin, async (req, res) => {
    const { orderNumber } = parseInput(OrderNumberParam, req.params);
    const events = await orderHistory(deps.history, orderNumber);
    if (!events) throw new NotFoundError('Order not found');
    res.json({ orderNumber, events });
  });

  r.patch('/api/orders/admin/:orderNumber/status', requireAdmin, async (req, res) => {
    const { orderNumber } = parseInput(OrderNumberParam, req.params);
    const { deliveryStatus } = parseInput(StatusBody, req.body ?? {}, STATUS_MESSAGE);
    await caughtUp(await orders.changeDeliveryStatus(orderNumber, deliveryStatus, req.user!.id));
    res.json({ message: 'Delivery status updated', ...(await readBack(orderNumber)) });
  });

  r.patch('/api/orders/admin/:orderNumber/seen', requireAdmin, async (req, res) => {
    const { orderNumber } = parseInput(OrderNumberParam, req.params);
    await caughtUp(await orders.markSeen(orderNumber, req.user!.id));
    res.json({ message: 'Order marked as seen', ...(await readBack(orderNumber)) });
  });

  r.delete('/api/orders/admin/:orderNumber', requireAdmin, async (req, res) => {
    const { orderNumber } = parseInput(OrderNumberParam, req.params);
    await caughtUp(await orders.delete(orderNumber, req.user!.id));
    res.json({ message: 'Order deleted', orderNumber });
  });

  return r;
}
