import { z } from 'zod';
import { figureOrZero, optionalText, textOrNull } from './fields';

// An order as the API and the push stream's `order` event carry it (seeds 000 and 001 "Order"): the fields
// the shopper's orders and the admin's orders both read, in one place. Each screen's schema spreads these
// and adds the fields only it shows.

/** The fields of an order line both screens read. */
export const orderLineFields = {
  size: textOrNull,
  color: textOrNull,
  totalAmount: figureOrZero,
};

/** The fields of an order both screens read. */
export const orderFields = {
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
