import { z } from 'zod';
import { orderConfirmationTokens } from '@shop/shared/contracts/order-confirmation';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { NotFoundError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { orderStreamId } from '../order/events.ts';
import { findOrderNumberByPayment, ORDER_PLACEMENT_CONSUMER } from '../placement/order-placement.ts';
import { ORDERS_PROJECTION } from '../read-models/orders/orders-projection.ts';
import type { OrderPushHub } from '../push/order-push-hub.ts';
import { findOrder } from '../read-models/orders/orders-queries.ts';
import { confirmationView, type OrderConfirmationView } from './confirmation-view.ts';

/** The token travels in the body, never the URL: it is the link's secret and URLs end up in access logs. */
export const ConfirmationBody = z.object({ token: z.string().min(1).max(300) });

export type { OrderConfirmationView } from './confirmation-view.ts';

/** Paid, but the order is not in the orders list yet (verify's 202 at a sale's peak). */
export const BEING_PLACED = 'Payment received. Your order is being placed.';

/** How long a read waits for the order to be placed and shown in the list before it answers 202. */
const LIST_WAIT_MS = 1000;

const NOT_FOUND = 'Order not found';

/** What the confirmation route uses. */
export type ConfirmationPorts = Pick<ServiceContext, 'pool' | 'config' | 'waitForProjection'> & { push: OrderPushHub };

const route = routeOf<ConfirmationPorts>('order');

/** Whether the placement has handled the payment's PaymentVerified (waiting up to `timeoutMs`). */
const placementHandled = (ctx: ConfirmationPorts, razorpayOrderId: string, timeoutMs: number) =>
  ctx.waitForProjection({
    schema: 'orders',
    consumer: ORDER_PLACEMENT_CONSUMER,
    streamId: paymentStreamId(razorpayOrderId),
    version: 1,
    timeoutMs,
  });

const listed = async (ctx: ConfirmationPorts, orderNumber: string): Promise<OrderConfirmationView | null> => {
  const order = await findOrder(ctx.pool, orderNumber);
  return order ? confirmationView(order) : null;
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
        const deadline = Date.now() + LIST_WAIT_MS;
        let orderNumber = await findOrderNumberByPayment(ctx.pool, razorpayOrderId);
        // Verify answers once the payment is recorded, so the buyer may get here before the placement ran.
        if (!orderNumber && (await placementHandled(ctx, razorpayOrderId, LIST_WAIT_MS)))
          orderNumber = await findOrderNumberByPayment(ctx.pool, razorpayOrderId);
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
            timeoutMs: Math.max(1, deadline - Date.now()),
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

  /**
   * The confirmation page's push while its order is being placed (the read above answered 202): opened with
   * fetch (a POST, so the token stays out of the URL, which EventSource cannot do), read as Server-Sent Events.
   */
  route({
    method: 'post',
    path: '/api/orders/confirmation/stream',
    auth: 'public',
    summary:
      "Server-Sent Events for one order by its confirmation link's token (in the body, as the read): ready, then order once it is placed and listed, then the stream ends",
    body: ConfirmationBody,
    responses: {
      200: 'An event stream (text/event-stream): ready, then order (as the confirmation read answers it), then the end',
      400: 'Bad input',
      404: 'Order not found (a token the shop did not sign)',
      429: 'Too many open streams for this order',
    },
    handler: (ctx) => {
      const tokens = orderConfirmationTokens(ctx.config.JWT_SECRET);
      return (req, res, { body: { token } }) => {
        const razorpayOrderId = tokens.read(token);
        if (!razorpayOrderId) throw new NotFoundError(NOT_FOUND);
        ctx.push.openConfirmation(req, res, razorpayOrderId);
      };
    },
  }),
];
