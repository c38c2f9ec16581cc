import { z } from 'zod';
import { ORDER_OF_PAYMENT_MAX_WAIT_MS, type OrderPlacementPort } from '@shop/shared/contracts/order-placement';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { routeOf } from '@shop/shared/http/route-table';

export const OrderOfPaymentBody = z
  .object({
    razorpayOrderId: z.string().min(1).max(100),
    paymentStreamId: z.string().min(1).max(120),
    paymentStreamVersion: z.number().int().min(1),
    timeoutMs: z.number().int().min(1).max(ORDER_OF_PAYMENT_MAX_WAIT_MS).optional(),
  })
  .refine((b) => b.paymentStreamId === paymentStreamId(b.razorpayOrderId), {
    message: 'paymentStreamId is not the stream of razorpayOrderId',
    path: ['paymentStreamId'],
  });

const route = routeOf<{ placement: OrderPlacementPort }>('order');

/**
 * /internal/orders/*: the OrderPlacementPort over HTTP, for checkout running as its own process. Answers
 * `{ orderNumber }` (null when the order does not show within the wait, at most 10 s).
 */
export const ORDER_PLACEMENT_ROUTES = [
  route({
    method: 'post',
    path: '/internal/orders/order-of-payment',
    auth: 'service',
    summary: 'Which order a verified payment became, waiting up to 10 s (service token)',
    body: OrderOfPaymentBody,
    responses: {
      200: '{orderNumber} (null if not placed within the wait)',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
    },
    handler:
      ({ placement }) =>
      async (_req, res, { body: { timeoutMs, ...payment } }) => {
        res.json({ orderNumber: await placement.orderOfPayment(payment, timeoutMs) });
      },
  }),
];
