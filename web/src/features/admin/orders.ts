import { z } from 'zod';
import type { Order } from '@/types/order';

// The admin's rules for orders (the order itself: types/order).

/** The delivery statuses an admin may set, in the dropdown's order. Cancelled is shown but never set. */
export const SETTABLE_DELIVERY_STATUSES = ['Processing', 'Out for Delivery', 'Delivered'] as const;
export type SettableDeliveryStatus = (typeof SETTABLE_DELIVERY_STATUSES)[number];

export function isSettableDeliveryStatus(value: string): value is SettableDeliveryStatus {
  return (SETTABLE_DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** The status a cancelled order shows (red); set only by cancelling, never from the dropdown. */
export const CANCELLED = 'Cancelled';

/** An admin may cancel any order that has not been delivered (and is not cancelled already). */
export function canCancelOrder(order: Pick<Order, 'deliveryStatus'>): boolean {
  return order.deliveryStatus !== 'Delivered' && order.deliveryStatus !== CANCELLED;
}

/** Only delivered orders can be deleted. */
export function canDeleteOrder(order: Pick<Order, 'deliveryStatus'>): boolean {
  return order.deliveryStatus === 'Delivered';
}

/**
 * Shipping statuses the parcel will not get out of by itself: the admin has to act (call the buyer,
 * re-ship, refund). Shiprocket's words: a return to origin (RTO ...), a lost or an undelivered parcel.
 */
export function shippingNeedsAction(status: string | null | undefined): boolean {
  const s = (status ?? '').trim().toUpperCase();
  return s.startsWith('RTO') || s === 'LOST' || s === 'UNDELIVERED';
}

/**
 * What keeps the order from shipping, in words (Shiprocket refused to make its shipment, e.g. for a pincode it
 * does not take): the admin acts on it (e.g. cancels the order, which refunds). Null when nothing does, or
 * once the order is cancelled (acted on: nothing is to ship).
 */
export function shipmentProblemText(order: Pick<Order, 'shipmentProblem' | 'deliveryStatus'>): string | null {
  const reason = order.shipmentProblem?.trim();
  return reason && order.deliveryStatus !== CANCELLED ? `Shiprocket refused the shipment: ${reason}` : null;
}

/** The order an `order` event of the push stream is about (a change or a removal), or null if unreadable. */
export function orderNumberOfEvent(raw: unknown): string | null {
  const parsed = z.object({ orderNumber: z.string().min(1) }).safeParse(raw);
  return parsed.success ? parsed.data.orderNumber : null;
}
