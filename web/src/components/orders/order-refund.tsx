import { formatRupees } from '@/lib/money';
import type { Order } from '@/types/order';

/**
 * A cancelled order's refund as both order screens show it: the amount, its status (Pending until the
 * provider has taken it, then Refunded) and the provider's reference once there is one.
 */
export function refundText(refund: NonNullable<Order['refund']>): string {
  return [formatRupees(refund.amount), refund.status, refund.reference ? `(${refund.reference})` : null]
    .filter(Boolean)
    .join(' ');
}

/** The refund's row of an order's details list (nothing for an order with no refund). */
export function RefundFact({ refund }: { refund: Order['refund'] }) {
  if (!refund) return null;
  return (
    <div>
      <dt>Refund</dt>
      <dd>{refundText(refund)}</dd>
    </div>
  );
}
