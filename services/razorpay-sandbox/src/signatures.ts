import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Razorpay's two signatures, both hex HMAC-SHA256: the checkout signature over `order_id|payment_id` with
 * the key secret, and the webhook signature over the raw request body with the webhook secret.
 * Verification never throws: anything that is not a well-formed signature simply does not verify.
 */

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

const hmacHex = (data: Buffer | string, secret: string) => createHmac('sha256', secret).update(data).digest('hex');

/** Hex HMAC-SHA256 of `${orderId}|${paymentId}` with the key secret, as Razorpay's checkout signs a payment. */
export function paymentSignature(orderId: string, paymentId: string, secret: string): string {
  return hmacHex(`${orderId}|${paymentId}`, secret);
}

/** Whether `signature` is Razorpay's checkout signature of this order and payment (timing-safe). */
export function verifyPaymentSignature(input: {
  orderId: string;
  paymentId: string;
  signature: string;
  secret: string;
}): boolean {
  const { orderId, paymentId, signature, secret } = input;
  if (typeof orderId !== 'string' || typeof paymentId !== 'string' || !orderId || !paymentId) return false;
  return matches(() => paymentSignature(orderId, paymentId, secret), signature, secret);
}

/** Hex HMAC-SHA256 of a webhook's raw body with the webhook secret (`X-Razorpay-Signature`). */
export function webhookSignature(rawBody: Buffer | string, secret: string): string {
  return hmacHex(rawBody, secret);
}

/** Whether `signature` is the webhook signature of exactly these raw body bytes (timing-safe). */
export function verifyWebhookSignature(rawBody: Buffer | string, signature: unknown, secret: string): boolean {
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
  return matches(() => webhookSignature(rawBody, secret), signature, secret);
}

function matches(expectedHex: () => string, signature: unknown, secret: string): boolean {
  // An empty secret is a configuration mistake, and anyone could sign with it: nothing verifies.
  if (typeof secret !== 'string' || secret.length === 0) return false;
  // Checking the shape first keeps both buffers 32 bytes, which timingSafeEqual requires.
  if (typeof signature !== 'string' || !HEX_SHA256.test(signature)) return false;
  return timingSafeEqual(Buffer.from(expectedHex(), 'hex'), Buffer.from(signature, 'hex'));
}
