import { z } from 'zod';
import { parseAnswer } from '@/lib/api-client';
import { parseEach } from '@/types/api';
import { figureOrZero, optionalText, textOrNull } from '@/types/fields';
import { orderFields, orderLineFields } from '@/types/order';

// An order as GET /api/orders and the push stream's `order` event carry it (seed 000 "Order").

const orderLineSchema = z.object({
  ...orderLineFields,
  Product: z
    .object({ id: z.union([z.string(), z.number()]), name: optionalText, image: optionalText.optional() })
    .nullish()
    .transform((product) => product ?? null),
  orderedQuantity: z.coerce.number().catch(1),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderSchema = z.object({
  ...orderFields,
  id: z.union([z.string(), z.number()]),
  orderNumber: z.string(),
  items: z.array(orderLineSchema).catch([]),
  subtotal: figureOrZero.optional(),
  discountAmount: figureOrZero.optional(),
  couponCode: textOrNull,
  shippingCharge: figureOrZero.optional(),
  deliveryCharge: figureOrZero.optional(),
  razorpayPaymentId: optionalText.optional(),
});
export type Order = z.infer<typeof orderSchema>;

/** Parses an order list, dropping entries that cannot be shown rather than failing the page. */
export function parseOrderList(raw: unknown): Order[] {
  return parseEach(orderSchema, raw);
}

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

/** What an `order` push event says: the order as it is now, or that it was deleted. */
export type OrderChange = { kind: 'upsert'; order: Order } | { kind: 'deleted'; orderNumber: string };

const deletedSchema = z.object({ orderNumber: z.string(), deleted: z.literal(true) });

/** Reads an `order` event's data; null when it is not readable. */
export function parseOrderChange(data: string): OrderChange | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  const deleted = deletedSchema.safeParse(raw);
  if (deleted.success) return { kind: 'deleted', orderNumber: deleted.data.orderNumber };
  const order = orderSchema.safeParse(raw);
  return order.success ? { kind: 'upsert', order: order.data } : null;
}

/**
 * Applies a pushed change to a newest-first list (in place, for an RTK Query draft): a known order is
 * replaced where it stands, a new one goes on top, a deleted one leaves.
 */
export function applyOrderChange(orders: Order[], change: OrderChange): void {
  const orderNumber = change.kind === 'deleted' ? change.orderNumber : change.order.orderNumber;
  const at = orders.findIndex((order) => order.orderNumber === orderNumber);
  if (change.kind === 'deleted') {
    if (at >= 0) orders.splice(at, 1);
  } else if (at >= 0) {
    orders[at] = change.order;
  } else {
    orders.unshift(change.order);
  }
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
