import type { Refund } from './api/refunds-api';

const reasons: Record<string, string> = {
  paid_after_expiry: 'Paid after the reservation expired',
  order_refused: 'Order could not be placed at payment',
  amount_mismatch: 'Amount paid differs from the order total',
  never_placed: 'Paid, but the order was never placed',
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

const indiaDateTime = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Kolkata',
});

/** A time in India time, e.g. '22 Nov 2026, 3:30 pm IST'; '—' for none. */
export function formatIndiaTime(iso: string | null): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${indiaDateTime.format(at)} IST`;
}
