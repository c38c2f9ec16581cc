import { z } from 'zod';
import { parseEach } from './api';
import { figureOrZero, optionalText, textOrNull } from './fields';

// An order as the API and the push stream's `order` event carry it (seeds 000 and 001 "Order"), read the
// same way by the shopper's screens and the admin's.

const orderLineFields = {
  size: textOrNull,
  color: textOrNull,
  totalAmount: figureOrZero,
};

const orderFields = {
  createdAt: optionalText,
  /** 'Processing' when the server sends none. */
  deliveryStatus: z
    .string()
    .nullish()
    .transform((value) => value || 'Processing'),
  totalAmount: figureOrZero,
  customerName: optionalText,
  customerPhone: optionalText,
  customerEmail: optionalText,
  address: optionalText,
  /** The order create payload's pincode: a courier needs it to ship the order. */
  pincode: optionalText,
  /** Shown as 'Pending' when the server sends none (seed). */
  paymentStatus: z
    .string()
    .nullish()
    .transform((value) => value || 'Pending'),
};

/** Where an order goes, as both screens show it: the address, then ' - ' and the pincode when there is one. */
export function deliveryAddress(order: { address: string; pincode: string }): string {
  return [order.address, order.pincode].filter(Boolean).join(' - ');
}

/** An order line: what was bought, in which size and colour, how many, for how much. */
export const orderLineSchema = z.object({
  ...orderLineFields,
  /** A line whose product the server left out still shows (as 'Product'). */
  Product: z
    .object({
      id: z
        .union([z.string(), z.number()])
        .nullish()
        .transform((id) => id ?? null),
      name: optionalText,
      image: optionalText.optional(),
    })
    .nullish()
    .transform((product) => product ?? { id: null, name: '' }),
  orderedQuantity: z.coerce.number().catch(1),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/**
 * An order as the shopper's orders (GET /orders), the admin's (GET /orders/admin/all), a confirmation link
 * and the push stream's `order` event carry it: one schema for every screen. Lines that cannot be shown are
 * dropped, the order kept.
 */
export const orderSchema = z.object({
  ...orderFields,
  id: z.union([z.string(), z.number()]).optional(),
  orderNumber: z.string().min(1),
  items: z
    .array(z.unknown())
    .nullish()
    .transform((items) => parseEach(orderLineSchema, items)),
  subtotal: figureOrZero.optional(),
  discountAmount: figureOrZero.optional(),
  couponCode: textOrNull,
  shippingCharge: figureOrZero.optional(),
  deliveryCharge: figureOrZero.optional(),
  razorpayPaymentId: optionalText.optional(),
  /** The shipment's AWB, tracking page and Shiprocket status (e.g. 'IN TRANSIT'); null until it is made. */
  shiprocketAWB: textOrNull,
  shiprocketTrackingUrl: textOrNull,
  shiprocketStatus: textOrNull,
  /** Why Shiprocket refused to make its shipment (its words), so the admin can act; null when nothing is refused. */
  shipmentProblem: textOrNull,
  /** Why it was cancelled (null unless Cancelled). */
  cancelReason: textOrNull,
  /** A cancelled order's refund: its amount, the provider's reference once taken, Pending or Refunded. */
  refund: z
    .object({ amount: figureOrZero, reference: textOrNull, status: z.string() })
    .nullish()
    .catch(null)
    .transform((refund) => refund ?? null),
  /** Whether its shopper may still cancel it (the server's rule: Processing, not yet shipped). */
  canCancel: z
    .boolean()
    .nullish()
    .catch(false)
    .transform((value) => value ?? false),
  /** Whether an admin has marked it seen. */
  seen: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
export type Order = z.infer<typeof orderSchema>;

/** The shipping status of a shipment cancelled at Shiprocket (a cancelled order's): no parcel to track. */
export const SHIPMENT_CANCELED = 'CANCELED';

/** Parses an order list, dropping entries that cannot be shown rather than failing the screen. */
export function parseOrderList(raw: unknown): Order[] {
  return parseEach(orderSchema, raw);
}

/** What an `order` push event says: the order as it is now, or that it was deleted. */
export type OrderChange = { kind: 'upsert'; order: Order } | { kind: 'deleted'; orderNumber: string };

const deletedSchema = z.object({ orderNumber: z.string(), deleted: z.literal(true) });

/** Reads an `order` event's data (`{orderNumber, deleted: true}` or an order); null when it is not readable. */
export function readOrderChange(raw: unknown): OrderChange | null {
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
