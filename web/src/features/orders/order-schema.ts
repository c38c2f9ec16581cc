import { z } from 'zod';
import { parseAnswer } from '@/lib/api-client';
import { orderSchema, type Order } from '@/types/order';

// What the shopper's screens read of an order beyond its schema (types/order): a confirmation link's answer
// and the order's totals.

/**
 * What POST /api/orders/confirmation answers for a confirmation link: the order, or (202) that the payment is in
 * and the order is being placed (no number yet).
 */
export type OrderConfirmation = { state: 'placed'; order: Order } | { state: 'placing'; message: string };

const placingSchema = z.object({ orderNumber: z.null(), message: z.string().nullish() });

/** Reads a confirmation answer; throws (a message fit for a user) when it is neither an order nor 'being placed'. */
export function parseOrderConfirmation(raw: unknown): OrderConfirmation {
  const placing = placingSchema.safeParse(raw);
  if (placing.success)
    return { state: 'placing', message: placing.data.message || 'Payment received. Your order is being placed.' };
  return { state: 'placed', order: parseAnswer(orderSchema, raw) };
}

/** Subtotal, discount, delivery (shipping + delivery charges) and total of an order. */
export function orderTotals(order: Order): { subtotal: number; discount: number; delivery: number; total: number } {
  const lineSum = order.items.reduce((sum, line) => sum + line.totalAmount, 0);
  return {
    subtotal: order.subtotal ?? lineSum,
    discount: order.discountAmount ?? 0,
    delivery: (order.shippingCharge ?? 0) + (order.deliveryCharge ?? 0),
    total: order.totalAmount,
  };
}
