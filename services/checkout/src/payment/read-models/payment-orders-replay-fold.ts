import type { PaymentEvent } from '@shop/shared/contracts/payment-events';
import { defineReplayFold, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';

/** The replay's in-memory fold of checkout.payment_orders (payment-orders-projection.ts). */
export function paymentOrdersReplayFold(): ReplayFold {
  const orders = new KeyedRows('checkout.payment_orders', [
    'razorpay_order_id',
    'reservation_id',
    'user_id',
    'status',
    'total_paise',
    'payment_id',
    'failures',
    'created_at',
    'expires_at',
    'updated_at',
  ]);
  /** A provider order's first row: created, not paid, no failures, last updated when created. */
  const created = (
    d: { razorpayOrderId: string; createdAt: string; expiresAt: string },
    reservationId: string,
    userId: string | null,
    totalPaise: number,
  ) => ({
    razorpay_order_id: d.razorpayOrderId,
    reservation_id: reservationId,
    user_id: userId,
    status: 'created',
    total_paise: totalPaise,
    payment_id: null,
    failures: 0,
    created_at: d.createdAt,
    expires_at: d.expiresAt,
    updated_at: d.createdAt,
  });
  return defineReplayFold<PaymentEvent>({
    on: {
      PaymentOrderOpened(d) {
        orders.insert(d.razorpayOrderId, created(d, '', d.userId, d.amountPaise));
      },
      PaymentOrderCreated(d) {
        if (!orders.update(d.razorpayOrderId, { reservation_id: d.reservationId, total_paise: d.totalPaise }))
          orders.insert(d.razorpayOrderId, created(d, d.reservationId, d.customer.userId, d.totalPaise));
      },
      PaymentDialogOpened(d) {
        orders.update(d.razorpayOrderId, { expires_at: d.expiresAt, updated_at: d.openedAt });
      },
      PaymentOrderRevived(d) {
        orders.update(d.razorpayOrderId, { reservation_id: d.reservationId, updated_at: d.revivedAt });
      },
      PaymentVerified(d) {
        orders.update(d.razorpayOrderId, {
          status: 'verified',
          payment_id: d.razorpayPaymentId,
          updated_at: d.verifiedAt,
        });
      },
      PaymentOrderExpired(d) {
        orders.update(d.razorpayOrderId, { status: 'expired', updated_at: d.expiredAt });
      },
      PaymentFailed(d) {
        orders.add(d.razorpayOrderId, 'failures', 1);
        orders.update(d.razorpayOrderId, { updated_at: d.failedAt });
      },
    },
    tables: [orders],
  });
}
