import { z } from 'zod';
import {
  MAX_ORDER_NUMBERS_PER_CALL,
  ORDER_OF_PAYMENT_MAX_WAIT_MS,
  type OrderPlacementPort,
} from '@shop/shared/contracts/order-placement';
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

export const OrderNumbersBody = z.object({ count: z.number().int().min(1).max(MAX_ORDER_NUMBERS_PER_CALL) });

const route = routeOf<{ placement: OrderPlacementPort }>('order');

/**
 * /internal/orders/*: the OrderPlacementPort over HTTP, for checkout running as its own process: fresh order
 * numbers for the payments it is about to record, and which order a verified payment became (`{ orderNumber }`,
 * null when the order does not show within the wait, at most 10 s).
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
  route({
    method: 'post',
    path: '/internal/orders/order-numbers',
    auth: 'service',
    summary: 'Fresh order numbers for payments checkout is about to record (service token)',
    body: OrderNumbersBody,
    responses: {
      200: '{orderNumbers: [ORD-...]} (count of them, each handed out once)',
      400: 'Bad input',
      401: 'Service token required',
      403: 'Internal route',
    },
    handler:
      ({ placement }) =>
      async (_req, res, { body: { count } }) => {
        res.json({ orderNumbers: await placement.allocateOrderNumbers(count) });
      },
  }),
];
