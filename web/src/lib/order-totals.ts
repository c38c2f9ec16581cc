// What an order costs: the seed's rule, total = subtotal - discount (not below 0) + shipping + delivery.
// Amounts are rupees with paise as decimals; sums are rounded to whole paise so 0.1 + 0.2 shows as 0.30.

/** The answer of POST /delivery/calculate, in rupees. */
export type DeliveryQuote = { deliveryCharge: number; shippingCharge: number; isFreeDelivery: boolean };

/** What the cart and checkout use when the delivery lookup fails: nothing to pay for delivery. */
export const FREE_DELIVERY: DeliveryQuote = Object.freeze({
  deliveryCharge: 0,
  shippingCharge: 0,
  isFreeDelivery: true,
});

export type OrderTotals = {
  subtotal: number;
  /** The discount actually taken off: never more than the subtotal. */
  discount: number;
  /** Subtotal after the discount: what delivery charges are calculated on at checkout. */
  discountedSubtotal: number;
  shippingCharge: number;
  deliveryCharge: number;
  /** Shipping plus delivery; 0 shows as 'Free'. */
  deliveryTotal: number;
  total: number;
};

const paise = (rupees: number) => Math.round(rupees * 100) / 100;
const nonNegative = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

/** Subtotal of cart lines: price times quantity, summed. */
export function linesSubtotal(lines: readonly { price: number; quantity: number }[]): number {
  return paise(lines.reduce((sum, line) => sum + line.price * line.quantity, 0));
}

/** The subtotal after a discount, never below 0 (what checkout asks delivery charges for). */
export function subtotalAfterDiscount(subtotal: number, discount: number): number {
  return paise(Math.max(0, subtotal - nonNegative(discount)));
}

/** The order's totals from its subtotal, a discount (0 without a coupon) and the delivery quote (or none yet). */
export function orderTotals(subtotal: number, discount: number, quote: DeliveryQuote | null | undefined): OrderTotals {
  const taken = paise(Math.min(nonNegative(discount), nonNegative(subtotal)));
  const discountedSubtotal = subtotalAfterDiscount(subtotal, taken);
  const shippingCharge = paise(nonNegative(quote?.shippingCharge ?? 0));
  const deliveryCharge = paise(nonNegative(quote?.deliveryCharge ?? 0));
  const deliveryTotal = paise(shippingCharge + deliveryCharge);
  return {
    subtotal: paise(subtotal),
    discount: taken,
    discountedSubtotal,
    shippingCharge,
    deliveryCharge,
    deliveryTotal,
    total: paise(discountedSubtotal + deliveryTotal),
  };
}

/**
 * The charges an order summary lists, named as the delivery answer names them (shippingCharge, deliveryCharge):
 * 'Shipping' then 'Delivery', each an amount or 'Free' (0). The cart and checkout show the same rows.
 */
export function chargeRows(totals: Pick<OrderTotals, 'shippingCharge' | 'deliveryCharge'>) {
  return [
    { label: 'Shipping', amount: totals.shippingCharge },
    { label: 'Delivery', amount: totals.deliveryCharge },
  ] as const;
}
