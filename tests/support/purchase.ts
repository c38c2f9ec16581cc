import { sandboxPay } from '../../services/checkout/src/payment-provider/sandbox/sandbox-pay.ts';
import type { TestShop } from './test-shop.ts';

export interface PurchaseLine {
  productId: string;
  quantity: number;
  size?: string | null;
}

/**
 * A guest buys `lines` as shopper number `buyer`: create-order, pay in the Razorpay sandbox, verify; the
 * order number. Each buyer shops from an address of its own (X-Forwarded-For, which the shop trusts from
 * loopback), since guests are rate-limited and capped per client address. Throws with the shop's answer
 * when a step is refused.
 */
export async function buyThroughSandbox(shop: TestShop, buyer: number, lines: PurchaseLine[]): Promise<string> {
  const headers = { 'x-forwarded-for': `10.${(buyer >> 16) & 255}.${(buyer >> 8) & 255}.${buyer & 255}` };
  const created = await shop.api<{ id: string }>('POST', '/api/payment/create-order', {
    headers,
    body: {
      amount: 1,
      currency: 'INR',
      receipt: `rcpt_${buyer}`,
      orderData: {
        address: '12 MG Road, Bengaluru',
        pincode: '560001',
        customerName: `Buyer ${buyer}`,
        customerPhone: '+919800000000',
        customerEmail: `buyer${buyer}@example.in`,
        items: lines.map((l) => ({ color: null, size: null, ...l })),
      },
    },
  });
  if (created.status !== 201) throw new Error(`create-order: ${created.status} ${JSON.stringify(created.body)}`);
  const payment = await sandboxPay(`${shop.url}/razorpay-sandbox`, created.body.id);
  const verified = await shop.api<{ orderNumber: string | null }>('POST', '/api/payment/verify', {
    headers,
    body: payment,
  });
  if (verified.status !== 200 || !verified.body.orderNumber)
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  return verified.body.orderNumber;
}
