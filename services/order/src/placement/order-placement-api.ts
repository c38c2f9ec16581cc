import { Router } from 'express';
import { z } from 'zod';
import { ORDER_OF_PAYMENT_MAX_WAIT_MS, type OrderPlacementPort } from '@shop/shared/contracts/order-placement';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { requireService } from '@shop/shared/auth/tokens';
import { parseInput } from '@shop/shared/http/validation';

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

/**
 * /internal/orders/*: the OrderPlacementPort over HTTP, for checkout running as its own process. Answers
 * `{ orderNumber }` (null when the order does not show within the wait, at most 10 s).
 */
export function orderPlacementRouter(placement: OrderPlacementPort): Router {
  const r = Router();
  r.post('/internal/orders/order-of-payment', requireService, async (req, res) => {
    const { timeoutMs, ...payment } = parseInput(OrderOfPaymentBody, req.body ?? {});
    res.json({ orderNumber: await placement.orderOfPayment(payment, timeoutMs) });
  });
  return r;
}
