import { hasSizeStock, availableStock } from '@/lib/stock';
import type { OrderTotals } from '@/lib/order-totals';
import type { Product, ProductId, User } from '@/types/api';
import { phoneProblem } from '@/types/fields';
import type { OrderData, SavedAddress } from './api/checkout-api';

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

export const REQUIRED_FIELDS: readonly (keyof ShippingDetails)[] = ['name', 'email', 'phone', 'address', 'pincode'];

/**
 * 'Cart is empty', 'Please fill all required fields' (name, email, phone, address, pincode), or the phone rule the
 * server applies to customerPhone (an Indian mobile number), else null.
 */
export function checkoutProblem(lines: readonly CheckoutLine[], shipping: ShippingDetails): Problem | null {
  if (lines.length === 0) return { title: 'Cart is empty' };
  if (REQUIRED_FIELDS.some((field) => shipping[field].trim() === ''))
    return { title: 'Please fill all required fields' };
  const phone = phoneProblem(shipping.phone);
  if (phone) return { title: phone };
  return null;
}

/**
 * The pre-payment re-check of one line against the product as the server has it now: delisted, the
 * chosen size's stock (when stock is kept per size), else the total stock must cover the quantity.
 */
export function lineStockProblem(line: CheckoutLine, product: Product): Problem | null {
  const { name } = line;
  if (product.isDelisted) return { title: 'Product not available', message: `${name} is no longer available` };
  const requested = line.quantity;
  if (line.size && hasSizeStock(product)) {
    const inSize = Math.max(0, product.sizeQuantities[line.size] ?? 0);
    if (inSize < requested)
      return {
        title: 'Size not available',
        message: `${name} - Size ${line.size} only has ${inSize} item(s) available. You requested ${requested}.`,
      };
    return null;
  }
  const total = availableStock(product, null);
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
export function withSavedAddress(shipping: ShippingDetails, saved: SavedAddress): ShippingDetails {
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
export function savedAddressLabel(saved: SavedAddress): string {
  const place = [saved.addressLine1, saved.city].filter(Boolean).join(', ');
  return `${saved.label}${saved.isDefault ? ' (default)' : ''} - ${saved.name}, ${place}`;
}
