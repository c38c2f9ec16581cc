import { expect } from 'vitest';
import type { HttpClient } from '@shop/test-support/http';

export { createProduct } from '@shop/test-support/fixtures';

/**
 * What the sale, outage, restart and shutdown e2e tests share: setting up the sale (a product, a coupon),
 * the shapes they read and a cut-tolerant POST.
 */

export interface PayResponse {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}
export interface OrderView {
  orderNumber: string;
  razorpayOrderId: string;
  couponCode: string | null;
  items: Array<{ Product: { id: string }; orderedQuantity: number }>;
}
export interface CouponView {
  code: string;
  usageLimit?: number | null;
  usedCount: number;
  reservedCount: number;
}

/** A POST that answers 'cut' when the connection is reset or refused: the process died under the request. */
export async function post(
  base: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> } | 'cut'> {
  try {
    const r = await fetch(base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: r.status, body: (await r.json().catch(() => ({}))) as Record<string, unknown> };
  } catch {
    return 'cut';
  }
}

/** The sale's coupon: 10% off any order, `usageLimit` uses. */
export async function createSaleCoupon(
  api: HttpClient,
  token: string,
  coupon: { code: string; usageLimit: number; description: string },
): Promise<void> {
  const created = await api<CouponView>('POST', '/api/coupons', {
    token,
    body: { ...coupon, discountType: 'percentage', discountValue: 10, minOrderAmount: 0 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}
