import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import type { TestShop } from './test-shop.ts';
import { waitUntil } from './wait-until.ts';

export interface PurchaseLine {
  productId: string;
  quantity: number;
  size?: string | null;
  color?: string | null;
}

/**
 * Buyer `n`'s own client address, as a header: X-Forwarded-For, which the shop trusts from loopback. A sale's
 * shoppers each come from their own, and guests are rate-limited and capped per client address.
 */
export const fromBuyer = (n: number): Record<string, string> => ({
  'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
});

/**
 * A guest's checkout details: buyer `n` (name, phone and e-mail of their own, an address in Bengaluru) buys
 * `lines` (no size or colour unless a line gives one); `details` adds to or replaces any of them (address,
 * name, phone, e-mail, coupon, ...).
 */
export const guestOrderData = (n: number, lines: PurchaseLine[], details: Record<string, unknown> = {}) => ({
  address: '12 MG Road, Bengaluru',
  pincode: '560001',
  customerName: `Buyer ${n}`,
  customerPhone: '+919800000000',
  customerEmail: `buyer${n}@example.in`,
  items: lines.map((l) => ({ size: null, color: null, ...l })),
  ...details,
});

/**
 * A guest's create-order body: guestOrderData with the receipt given. The amount is a placeholder: the shop
 * prices the order itself.
 */
export const guestOrder = (
  receipt: string,
  n: number,
  lines: PurchaseLine[],
  details: Record<string, unknown> = {},
) => ({
  amount: 1,
  currency: 'INR',
  receipt,
  orderData: guestOrderData(n, lines, details),
});

/**
 * A guest buys `lines` as shopper number `buyer` (from an address of their own: fromBuyer): create-order, pay
 * in the Razorpay sandbox, verify; the order number, once the order shows (verify answers as soon as the
 * payment is recorded: the order is read through its confirmation link until it is placed and listed).
 * Throws with the shop's answer when a step is refused.
 */
export async function buyThroughSandbox(shop: TestShop, buyer: number, lines: PurchaseLine[]): Promise<string> {
  const headers = fromBuyer(buyer);
  const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
    headers,
    body: guestOrder(`rcpt_${buyer}`, buyer, lines),
  });
  if (created.status !== 201) throw new Error(`create-order: ${created.status} ${JSON.stringify(created.body)}`);
  const payment = await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
  const verified = await shop.api<{ orderNumber: string | null; orderToken?: string }>('POST', '/api/payment/verify', {
    headers,
    body: payment,
  });
  const { orderNumber, orderToken } = verified.body;
  if (verified.status !== 200 || !orderNumber || !orderToken)
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  await waitForPlacedOrder(shop, orderToken, orderNumber);
  return orderNumber;
}

/**
 * After a verify that answered 200 (the payment recorded, with its order number): reads the order through its
 * confirmation link until it is placed and listed. Throws if it was placed under another number.
 */
export async function waitForPlacedOrder(
  shop: Pick<TestShop, 'api'>,
  orderToken: string,
  orderNumber: string,
): Promise<void> {
  await waitUntil(async () => {
    const shown = await shop.api<{ orderNumber: string | null }>('POST', '/api/orders/confirmation', {
      body: { token: orderToken },
    });
    if (shown.status === 200 && shown.body.orderNumber !== orderNumber)
      throw new Error(`order ${orderNumber} was placed as ${shown.body.orderNumber}`);
    return shown.status === 200;
  }, `order ${orderNumber} to be placed`);
}
