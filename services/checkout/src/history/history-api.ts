import { z } from 'zod';
import type { CheckoutHistoryPort } from '@shop/shared/contracts/event-history';
import { routeOf } from '@shop/shared/http/route-table';

export const PAYMENT_HISTORY_PATH = '/internal/checkout/payment-history';

export const PaymentHistoryBody = z.object({ razorpayOrderId: z.string().min(1).max(100) });

const route = routeOf<{ history: Pick<CheckoutHistoryPort, 'payment'> }>('checkout');

/**
 * Checkout's part of an order's history over HTTP, for the order service running as its own process:
 * `{events}` of a payment stream.
 */
export const CHECKOUT_HISTORY_ROUTES = [
  route({
    method: 'post',
    path: PAYMENT_HISTORY_PATH,
    auth: 'service',
    summary: "A payment's events, for an order's history (service token)",
    body: PaymentHistoryBody,
    responses: { 200: '{events}', 400: 'Bad input', 401: 'Service token required', 403: 'Internal route' },
    handler:
      ({ history }) =>
      async (_req, res, { body: { razorpayOrderId } }) => {
        res.json({ events: await history.payment(razorpayOrderId) });
      },
  }),
];
