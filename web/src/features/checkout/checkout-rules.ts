import { hasSizeStock, availableStock } from '@/lib/stock';
import type { OrderTotals } from '@/lib/order-totals';
import { DEFAULT_ADDRESS_LABEL, type Address } from '@/types/address';
import type { Product, ProductId, User } from '@/types/api';
import { phoneProblem } from '@/types/fields';
import { EMAIL_MESSAGE, isEmailAddress } from '@shop/shared/contracts/email-address';
import { INDIAN_PINCODE_MESSAGE, isIndianPincode } from '@shop/shared/contracts/indian-pincode';
import type { OrderData } from './api/checkout-api';

// Checkout's rules (seed 000 sections 4-5), free of React so they can be tested on their own.

/** A cart line as checkout needs it (the cart's lines have these fields and more). */
export type CheckoutLine = {
  id: ProductId;
  name: string;
  price: number;
  quantity: number;
  size: string | null;
  color: string | null;
  image: string | null;
};

export type ShippingDetails = {
  name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  pincode: string;
};

export const EMPTY_SHIPPING: ShippingDetails = Object.freeze({
  name: '',
  email: '',
  phone: '',
  address: '',
  city: '',
  state: '',
  pincode: '',
});

/** A refusal shown as a notification: a title and a message. */
export type Problem = { title: string; message?: string };

/**
 * Shipping details kept for this tab (a draft read back after a reload), or the empty form when what is stored is
 * not a draft of these fields: every field a string, nothing else taken.
 */
export function shippingDraft(stored: unknown): ShippingDetails {
  if (typeof stored !== 'object' || stored === null) return EMPTY_SHIPPING;
  const draft = { ...EMPTY_SHIPPING };
  for (const key of Object.keys(EMPTY_SHIPPING) as (keyof ShippingDetails)[]) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value === 'string') draft[key] = value.slice(0, 500);
  }
  return draft;
}

export const REQUIRED_FIELDS: readonly (keyof ShippingDetails)[] = ['name', 'email', 'phone', 'address', 'pincode'];

/**
 * 'Cart is empty', 'Please fill all required fields' (name, email, phone, address, pincode), or the rules the
 * server applies to the contact and address (an Indian mobile number, an e-mail address, a 6-digit pincode that
 * the courier takes), else null. Caught here, they are told as what they are, not as 'Payment failed'.
 */
export function checkoutProblem(lines: readonly CheckoutLine[], shipping: ShippingDetails): Problem | null {
  if (lines.length === 0) return { title: 'Cart is empty' };
  if (REQUIRED_FIELDS.some((field) => shipping[field].trim() === ''))
    return { title: 'Please fill all required fields' };
  const phone = phoneProblem(shipping.phone);
  if (phone) return { title: phone };
  if (!isEmailAddress(shipping.email)) return { title: EMAIL_MESSAGE };
  if (!isIndianPincode(shipping.pincode)) return { title: INDIAN_PINCODE_MESSAGE };
  return null;
}

/**
 * This browser's own unpaid checkout (remembered in storage, shared by its tabs, kept across a reload): what it
 * holds and until when. The server gives those units back when this buyer checks out again (a new checkout
 * replaces the old one), so the pre-payment re-check counts them as available to this buyer: a reload or a second
 * tab never blocks the buyer with their own hold.
 */
export type OpenCheckout = {
  razorpayOrderId: string;
  lines: { productId: string; size: string | null; quantity: number }[];
  createdAt: string;
  /** Until when the server holds it, once the dialog opened (dialog-opened's answer); null before. */
  expiresAt: string | null;
};

/**
 * How long a checkout holds its stock before its dialog opens, as the shop's default (HOLD_BEFORE_DIALOG_SECONDS).
 * Guessing wrong only means the server decides: its refusal carries the same title and message.
 */
const HOLD_BEFORE_DIALOG_MS = 120_000;

/** Whether the server still holds `open`'s stock at `now`, as far as this browser can tell. */
function stillHeld(open: OpenCheckout, now: Date): boolean {
  const until = open.expiresAt ? Date.parse(open.expiresAt) : Date.parse(open.createdAt) + HOLD_BEFORE_DIALOG_MS;
  return Number.isFinite(until) && now.getTime() < until;
}

/**
 * Units of `line`'s product the buyer's own open checkout still holds: of its size when `bySize`, else of any size.
 */
export function ownHeldUnits(open: OpenCheckout | null, line: CheckoutLine, bySize: boolean, now: Date): number {
  if (!open || !stillHeld(open, now)) return 0;
  return open.lines
    .filter((held) => held.productId === String(line.id) && (!bySize || held.size === (line.size || null)))
    .reduce((sum, held) => sum + held.quantity, 0);
}

/** The open checkout as stored, or null when absent or not of this shape (another version of the app wrote it). */
export function parseOpenCheckout(value: unknown): OpenCheckout | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<OpenCheckout>;
  if (typeof v.razorpayOrderId !== 'string' || !Array.isArray(v.lines) || typeof v.createdAt !== 'string') return null;
  const lines = v.lines.filter(
    (l): l is OpenCheckout['lines'][number] =>
      typeof l === 'object' && l !== null && typeof l.productId === 'string' && typeof l.quantity === 'number',
  );
  return {
    razorpayOrderId: v.razorpayOrderId,
    lines: lines.map((l) => ({ productId: l.productId, size: l.size ?? null, quantity: l.quantity })),
    createdAt: v.createdAt,
    expiresAt: typeof v.expiresAt === 'string' ? v.expiresAt : null,
  };
}

/**
 * The pre-payment re-check of one line against the product as the server has it now: delisted, the
 * chosen size's stock (when stock is kept per size), else the total stock must cover the quantity. Units the
 * buyer's own open checkout holds count as available to them (`own`).
 */
export function lineStockProblem(
  line: CheckoutLine,
  product: Product,
  own: OpenCheckout | null = null,
  now: Date = new Date(),
): Problem | null {
  const { name } = line;
  if (product.isDelisted) return { title: 'Product not available', message: `${name} is no longer available` };
  const requested = line.quantity;
  if (line.size && hasSizeStock(product)) {
    const inSize = Math.max(0, product.sizeQuantities[line.size] ?? 0) + ownHeldUnits(own, line, true, now);
    if (inSize < requested)
      return {
        title: 'Size not available',
        message: `${name} - Size ${line.size} only has ${inSize} item(s) available. You requested ${requested}.`,
      };
    return null;
  }
  const total = availableStock(product, null) + ownHeldUnits(own, line, false, now);
  if (total < requested)
    return {
      title: 'Not enough stock',
      message: `${name} only has ${total} item(s) available. You requested ${requested}.`,
    };
  return null;
}

/** The failed lookup's refusal. */
export function lookupProblem(line: CheckoutLine): Problem {
  return { title: 'Failed to validate product', message: `Could not check ${line.name}. Please try again.` };
}

/** A coupon code as the server expects it: trimmed and upper-cased. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** The one-line address sent with the order: street, city and state. */
export function addressText(shipping: ShippingDetails): string {
  return [shipping.address, shipping.city, shipping.state]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}

/** The order create payload: the subtotal as totalAmount, each line's product, quantity, size and colour. */
export function buildOrderData(
  lines: readonly CheckoutLine[],
  shipping: ShippingDetails,
  totals: OrderTotals,
  couponCode: string | null,
): OrderData {
  return {
    address: addressText(shipping),
    totalAmount: totals.subtotal,
    items: lines.map((line) => ({
      productId: line.id,
      quantity: line.quantity,
      size: line.size || null,
      color: line.color || null,
    })),
    customerName: shipping.name.trim(),
    customerPhone: shipping.phone.trim(),
    customerEmail: shipping.email.trim(),
    pincode: shipping.pincode.trim(),
    couponCode,
    discountAmount: totals.discount,
    shippingCharge: totals.shippingCharge,
    deliveryCharge: totals.deliveryCharge,
  };
}

/** The form filled from the signed-in user's profile, keeping whatever the shopper already typed. */
export function withProfile(shipping: ShippingDetails, user: Pick<User, 'name' | 'email' | 'phone'>): ShippingDetails {
  return {
    ...shipping,
    name: shipping.name || user.name,
    email: shipping.email || user.email,
    phone: shipping.phone || (user.phone ?? ''),
  };
}

/** The form filled from a saved address; contact fields the address lacks keep their value. */
export function withSavedAddress(shipping: ShippingDetails, saved: Address): ShippingDetails {
  return {
    name: saved.name || shipping.name,
    email: saved.email || shipping.email,
    phone: saved.phone || shipping.phone,
    address: [saved.addressLine1, saved.addressLine2].filter((part) => part.trim()).join(', '),
    city: saved.city,
    state: saved.state,
    pincode: saved.zipCode,
  };
}

/** How a saved address is named in the picker. */
export function savedAddressLabel(saved: Address): string {
  const place = [saved.addressLine1, saved.city].filter(Boolean).join(', ');
  return `${saved.label || DEFAULT_ADDRESS_LABEL}${saved.isDefault ? ' (default)' : ''} - ${saved.name}, ${place}`;
}
