import { describe, expect, it } from 'vitest';
import type { RefundReason } from '@shop/shared/contracts/payment-events';
import { refundReason } from './refund-labels';

describe('refundReason', () => {
  it('names every reason the checkout records in words an admin reads, never the code', () => {
    const all: Record<RefundReason, true> = {
      paid_after_expiry: true,
      order_refused: true,
      amount_mismatch: true,
      never_placed: true,
      order_cancelled: true,
    };
    for (const reason of Object.keys(all)) expect(refundReason(reason)).not.toBe(reason);
    expect(refundReason('never_placed')).toBe('Paid, but the order was never placed');
  });
});
