import { sandboxPay } from '../../services/razorpay-sandbox/src/sandbox-pay.ts';
import { waitUntil } from '@shop/test-support/wait-until';
import { ADDRESS, createProduct as createProductThroughApi } from '@shop/test-support/fixtures';
import type { TestShop } from '@shop/test-support/test-shop';

/** Shoppers, their things and their purchases, made through the shop's public API as a browser would. */

export interface Shopper {
  id: string;
  token: string;
  email: string;
  /** A client address of their own (X-Forwarded-For, trusted from loopback): per-address limits stay apart. */
  from: Record<string, string>;
}

let nextAddress = 1;
const clientAddress = () => {
  const n = nextAddress++;
  return { 'x-forwarded-for': `10.77.${(n >> 8) & 255}.${n & 255}` };
};

export async function registerShopper(
  shop: Pick<TestShop, 'api'>,
  name: string,
  email: string,
): Promise<Shopper> {
  const from = clientAddress();
  const r = await shop.api<{ user: { id: string }; token: string }>('POST', '/api/auth/register', {
    headers: from,
    body: { name, email, phone: '+919812345678', password: 'secret123' },
  });
  if (r.status !== 201) throw new Error(`register ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.user.id, token: r.body.token, email, from };
}

export async function createProduct(shop: TestShop, admin: string, name: string, quantity = 50): Promise<string> {
  return createProductThroughApi(shop.api, admin, {
    name,
    price: '799',
    quantity: String(quantity),
    category: 'Women',
  });
}

export { ADDRESS };

export async function addAddress(shop: TestShop, who: Shopper, fields: Partial<typeof ADDRESS> = {}): Promise<string> {
  const r = await shop.api<{ id: string }>('POST', '/api/addresses', {
    token: who.token,
    headers: who.from,
    body: { ...ADDRESS, ...fields },
  });
  if (r.status !== 201) throw new Error(`add address: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

export const orderDataOf = (who: { email: string; name?: string }, productId: string) => ({
  address: '12 MG Road, Bengaluru',
  pincode: '560001',
  customerName: who.name ?? 'Asha Rao',
  customerPhone: '+919812345678',
  customerEmail: who.email,
  items: [{ productId, quantity: 1, size: null, color: null }],
});

export interface Purchase {
  orderNumber: string;
  razorpayOrderId: string;
  payment: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
}

/** A signed-in shopper buys one unit: create-order with the cart, pay in the Razorpay sandbox, verify. */
export async function buyAs(
  shop: Pick<TestShop, 'api' | 'url'>,
  who: Shopper,
  productId: string,
  /** More of the checkout's details (a couponCode). */
  details: Record<string, unknown> = {},
): Promise<Purchase> {
  const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
    token: who.token,
    headers: who.from,
    body: {
      amount: 1,
      currency: 'INR',
      receipt: `rcpt_${who.id.slice(0, 8)}`,
      orderData: { ...orderDataOf(who, productId), ...details },
    },
  });
  if (created.status !== 201) throw new Error(`create-order: ${created.status} ${JSON.stringify(created.body)}`);
  const payment = await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
  const verified = await shop.api<{ orderNumber: string | null }>('POST', '/api/payment/verify', {
    token: who.token,
    headers: who.from,
    body: payment,
  });
  const { orderNumber } = verified.body;
  if (verified.status !== 200 || !orderNumber)
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  // verify answers once the payment is recorded: the shopper's list shows the order a moment later
  await waitUntil(async () => {
    const mine = await shop.api<Array<{ orderNumber: string }>>('GET', '/api/orders', { token: who.token });
    return mine.body.some((o) => o.orderNumber === orderNumber);
  }, `order ${orderNumber} in the shopper's list`);
  return { orderNumber, razorpayOrderId: created.body.id, payment };
}

/** The account's row is gone from accounts.users (what authenticate() checks), after it was first written. */
export async function removeAccount(shop: TestShop, userId: string): Promise<void> {
  await waitUntil(
    async () => (await shop.db.pool.query('SELECT 1 FROM accounts.users WHERE id = $1', [userId])).rowCount === 1,
    'the new account in accounts.users',
  );
  await shop.db.pool.query('DELETE FROM accounts.users WHERE id = $1', [userId]);
}
