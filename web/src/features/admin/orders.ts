import { z } from 'zod';
import { parseEach } from '@/types/api';
import { figureOrZero, optionalText, textOrNull } from '@/types/fields';
import { orderFields, orderLineFields } from '@/types/order';

// Orders as the admin screen reads them (seed 001 "Order"), checked at the edge and lenient where the
// server may leave a field out (the shipping-tracking fields are null until a courier is wired in).

export const orderItemSchema = z.object({
  ...orderLineFields,
  Product: z
    .object({ id: z.union([z.string(), z.number()]).nullish(), name: optionalText })
    .nullish()
    .transform((product) => product ?? { id: null, name: '' }),
  orderedQuantity: figureOrZero,
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const orderSchema = z.object({
  ...orderFields,
  orderNumber: z.string().min(1),
  shiprocketAWB: textOrNull,
  shiprocketTrackingUrl: textOrNull,
  shiprocketStatus: textOrNull,
  seen: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  items: z
    .array(z.unknown())
    .nullish()
    .transform((items) => parseEach(orderItemSchema, items)),
});
export type Order = z.infer<typeof orderSchema>;

/** Parses an order list, dropping entries that cannot be shown rather than failing the whole screen. */
export function parseOrderList(raw: unknown): Order[] {
  return parseEach(orderSchema, raw);
}

/** The delivery statuses an admin may set, in the dropdown's order. Cancelled is shown but never set. */
export const SETTABLE_DELIVERY_STATUSES = ['Processing', 'Out for Delivery', 'Delivered'] as const;
export type SettableDeliveryStatus = (typeof SETTABLE_DELIVERY_STATUSES)[number];

export function isSettableDeliveryStatus(value: string): value is SettableDeliveryStatus {
  return (SETTABLE_DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** Only delivered orders can be deleted. */
export function canDeleteOrder(order: Pick<Order, 'deliveryStatus'>): boolean {
  return order.deliveryStatus === 'Delivered';
}

/**
 * Applies one `order` event of the push stream to the list (newest first): a changed order replaces
 * its entry, a new one goes on top, `{orderNumber, deleted: true}` removes it. Anything unreadable
 * leaves the list as it was.
 */
export function applyOrderEvent(orders: readonly Order[], raw: unknown): Order[] {
  const removal = z.object({ orderNumber: z.string(), deleted: z.literal(true) }).safeParse(raw);
  if (removal.success) return orders.filter((order) => order.orderNumber !== removal.data.orderNumber);
  const parsed = orderSchema.safeParse(raw);
  if (!parsed.success) return [...orders];
  const order = parsed.data;
  const index = orders.findIndex((existing) => existing.orderNumber === order.orderNumber);
  if (index === -1) return [order, ...orders];
  return orders.map((existing, i) => (i === index ? order : existing));
}

/** The order an `order` event of the push stream is about (a change or a removal), or null if unreadable. */
export function orderNumberOfEvent(raw: unknown): string | null {
  const parsed = z.object({ orderNumber: z.string().min(1) }).safeParse(raw);
  return parsed.success ? parsed.data.orderNumber : null;
}
