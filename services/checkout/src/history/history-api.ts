import { Router } from 'express';
import { z } from 'zod';
import { requireService } from '@shop/shared/auth/tokens';
import type { CheckoutHistoryPort } from '@shop/shared/contracts/event-history';
import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { parseInput } from '@shop/shared/http/validation';

export const PAYMENT_HISTORY_PATH = '/internal/checkout/payment-history';

export const PaymentHistoryBody = z.object({ razorpayOrderId: z.string().min(1).max(100) });

/**
 * Checkout's part of an order's history over HTTP, for the order service running as its own process:
 * `{events}` of a payment stream.
 */
export function checkoutHistoryRouter(history: Pick<CheckoutHistoryPort, 'payment'>): Router {
  const r = Router();
  r.post(PAYMENT_HISTORY_PATH, requireService, async (req, res) => {
    const { razorpayOrderId } = parseInput(PaymentHistoryBody, req.body ?? {});
    res.json({ events: await history.payment(razorpayOrderId) });
  });
  return r;
}

export const CHECKOUT_HISTORY_ROUTES: RouteSpec[] = [
  route({
    method: 'post',
    path: PAYMENT_HISTORY_PATH,
    auth: 'service',
    service: 'checkout',
    summary: "A payment's events, for an order's history (service token)",
    body: PaymentHistoryBody,
    responses: { 200: '{events}', 400: 'Bad input', 401: 'Service token required', 403: 'Internal route' },
  }),
];
