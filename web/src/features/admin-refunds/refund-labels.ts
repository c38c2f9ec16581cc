import type { Refund } from './api/refunds-api';

const reasons: Record<string, string> = {
  paid_after_expiry: 'Paid after the reservation expired',
  order_refused: 'Order could not be placed at payment',
  amount_mismatch: 'Amount paid differs from the order total',
  never_placed: 'Paid, but the order was never placed',
  order_cancelled: 'Order cancelled',
};

/** Why the money goes back, in words an admin reads. */
export function refundReason(reason: string): string {
  return reasons[reason] ?? reason;
}

/** 'Refunded', or 'Due' (with the failed tries at the provider so far). */
export function refundStatus(refund: Pick<Refund, 'status' | 'attempts'>): string {
  if (refund.status === 'refunded') return 'Refunded';
  return refund.attempts > 0 ? `Due (${refund.attempts} failed ${refund.attempts === 1 ? 'try' : 'tries'})` : 'Due';
}

/** Admin screens show times in India time (one formatter, in lib). */
export { formatIndiaTime } from '@/lib/india-time';
