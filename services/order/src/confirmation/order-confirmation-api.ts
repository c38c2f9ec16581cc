import { z } from 'zod';
import { orderConfirmationTokens } from '@shop/shared/contracts/order-confirmation';
import { NotFoundError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { orderStreamId } from '../order/events.ts';
import { findOrderNumberByPayment } from '../placement/order-placement.ts';
import { ORDERS_PROJECTION } from '../read-models/orders/orders-projection.ts';
import { findOrder, type OrderView } from '../read-models/orders/orders-queries.ts';

/** The token travels in the body, never the URL: it is the link's secret and URLs end up in access logs. */
export const ConfirmationBody = z.object({ token: z.string().min(1).max(300) });

/** What the confirmation page shows: the order as the buyer's own list has it, less what is the shop's business. */
export type OrderConfirmationView = Omit<OrderView, 'seen' | 'User'>;

/** Paid, but the order is not in the orders list yet (verify's 202 at a sale's peak). */
export const BEING_PLACED = 'Payment received. Your order is being placed.';

/** How long a read waits for a placed order to show in the list before it answers 202. */
const LIST_WAIT_MS = 1000;

const NOT_FOUND = 'Order not found';

/** What the confirmation route uses. */
export type ConfirmationPorts = Pick<ServiceContext, 'pool' | 'config' | 'waitForProjection'>;

const route = routeOf<ConfirmationPorts>('order');

const listed = async (ctx: ConfirmationPorts, orderNumber: string): Promise<OrderConfirmationView | null> => {
  const order = await findOrder(ctx.pool, orderNumber);
  if (!order) return null;
  const { seen: _seen, User: _user, ...view } = order;
  return view;
};

/**
 * POST /api/orders/confirmation: one order read by the token of its confirmation link (contracts/order-confirmation),
 * for whoever holds the link, signed in or not. A token the shop did not sign, or of an order that was deleted, is
 * 404 'Order not found', the same answer as for an order that never existed.
 */
export const CONFIRMATION_ROUTES = [
  route({
    method: 'post',
    path: '/api/orders/confirmation',
    auth: 'public',
    summary:
      "One order read by its confirmation link's token (the buyer's, from verify; no sign-in): the order's page for guests too",
    body: ConfirmationBody,
    responses: {
      200: 'The order (as in the own-orders list, less seen and User)',
      202: '{orderNumber: null, message}: paid, the order is being placed',
      400: 'Bad input',
      404: 'Order not found (also for a token the shop did not sign)',
    },
    handler: (ctx) => {
      const tokens = orderConfirmationTokens(ctx.config.JWT_SECRET);
      return async (_req, res, { body: { token } }) => {
        const razorpayOrderId = tokens.read(token);
        if (!razorpayOrderId) throw new NotFoundError(NOT_FOUND);
        const orderNumber = await findOrderNumberByPayment(ctx.pool, razorpayOrderId);
        if (orderNumber) {
          const order = await listed(ctx, orderNumber);
          if (order) return void res.json(order);
          // Placed, and either not listed yet or deleted since: once the list has seen the order's first event,
          // a missing row means deleted.
          const seen = await ctx.waitForProjection({
            schema: 'orders',
            consumer: ORDERS_PROJECTION,
            streamId: orderStreamId(orderNumber),
            version: 1,
            timeoutMs: LIST_WAIT_MS,
          });
          if (seen) {
            const now = await listed(ctx, orderNumber);
            if (!now) throw new NotFoundError(NOT_FOUND);
            return void res.json(now);
          }
        }
        // A signed token means a verified payment: the order is on its way.
        res.status(202).json({ orderNumber: null, message: BEING_PLACED });
      };
    },
  }),
];
