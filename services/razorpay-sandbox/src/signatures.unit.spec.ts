import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { paymentSignature, verifyPaymentSignature, verifyWebhookSignature, webhookSignature } from './signatures.ts';

const secret = 'rzp_test_secret_ABC';
const orderId = 'order_IluGWxBm9U8zJ8';
const paymentId = 'pay_IluGWxBm9U8zJ9';

describe('payment signature', () => {
  const signature = paymentSignature(orderId, paymentId, secret);

  it("is Razorpay's: hex HMAC-SHA256 of order_id|payment_id with the key secret", () => {
    // Independent of the implementation: the formula from Razorpay's docs.
    const expected = createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');
    expect(signature).toBe(expected);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies the signature of this order and payment', () => {
    expect(verifyPaymentSignature({ orderId, paymentId, signature, secret })).toBe(true);
    expect(verifyPaymentSignature({ orderId, paymentId, signature: signature.toUpperCase(), secret })).toBe(true);
  });

  it('refuses a signature made for another order, another payment or with another secret', () => {
    expect(verifyPaymentSignature({ orderId: 'order_IluGWxBm9U8zJX', paymentId, signature, secret })).toBe(false);
    expect(verifyPaymentSignature({ orderId, paymentId: 'pay_IluGWxBm9U8zJX', signature, secret })).toBe(false);
    expect(verifyPaymentSignature({ orderId, paymentId, signature, secret: 'another secret' })).toBe(false);
  });

  it('refuses a tampered signature, one hex digit changed', () => {
    const last = signature.at(-1) === '0' ? '1' : '0';
    expect(verifyPaymentSignature({ orderId, paymentId, signature: signature.slice(0, -1) + last, secret })).toBe(
      false,
    );
  });

  it('refuses, without throwing, signatures of the wrong length, non-hex, empty or not strings', () => {
    const garbage: unknown[] = [
      signature.slice(0, -2),
      signature + '00',
      'z'.repeat(64),
      `${signature.slice(0, -1)}g`,
      '',
      ' '.repeat(64),
      null,
      undefined,
      42,
      { toString: () => signature },
      Buffer.from(signature, 'hex'),
    ];
    for (const bad of garbage) {
      expect(verifyPaymentSignature({ orderId, paymentId, signature: bad as string, secret })).toBe(false);
    }
  });

  it('refuses when an id is missing or the secret is empty (anyone can sign with an empty key)', () => {
    expect(verifyPaymentSignature({ orderId: '', paymentId, signature, secret })).toBe(false);
    expect(verifyPaymentSignature({ orderId, paymentId: undefined as unknown as string, signature, secret })).toBe(
      false,
    );
    const emptyKeySignature = paymentSignature(orderId, paymentId, '');
    expect(verifyPaymentSignature({ orderId, paymentId, signature: emptyKeySignature, secret: '' })).toBe(false);
  });
});

describe('webhook signature', () => {
  const webhookSecret = 'whsec_shop';
  const raw = '{"entity":"event","event":"order.paid","payload":{"order":{"entity":{"amount":49900}}}}';
  const signature = webhookSignature(raw, webhookSecret);

  it('is the hex HMAC-SHA256 of the raw body, the same for a string and its bytes', () => {
    expect(signature).toBe(createHmac('sha256', webhookSecret).update(raw).digest('hex'));
    expect(webhookSignature(Buffer.from(raw), webhookSecret)).toBe(signature);
  });

  it('verifies the exact raw body, as a string or a Buffer', () => {
    expect(verifyWebhookSignature(raw, signature, webhookSecret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(raw), signature, webhookSecret)).toBe(true);
  });

  it('refuses a body changed in any way, even only re-serialized', () => {
    expect(verifyWebhookSignature(raw.replace('49900', '100'), signature, webhookSecret)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(raw), null, 1), signature, webhookSecret)).toBe(false);
  });

  it('refuses another secret, tampered, short, long and non-hex signatures without throwing', () => {
    expect(verifyWebhookSignature(raw, signature, 'other')).toBe(false);
    expect(verifyWebhookSignature(raw, signature, '')).toBe(false);
    for (const bad of [signature.slice(1), signature + 'a', 'x'.repeat(64), '', undefined, null, ['a'], 7]) {
      expect(verifyWebhookSignature(raw, bad, webhookSecret)).toBe(false);
    }
    expect(verifyWebhookSignature(undefined as unknown as string, signature, webhookSecret)).toBe(false);
  });
});
