import type { PaymentEvent } from '@shop/shared/contracts/payment-events';
import type { ReplayFold } from '@shop/shared/replay/fold';

/** The replay's in-memory fold of checkout.payment_orders (payment-orders-projection.ts). */

const COLUMNS = [
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
] as const;
type Row = Record<(typeof COLUMNS)[number], unknown>;

export function paymentOrdersReplayFold(): ReplayFold {
  const orders = new Map<string, Row>();
  return {
    apply(event) {
      const e = { type: event.type, data: event.data } as PaymentEvent;
      switch (e.type) {
        case 'PaymentOrderOpened': {
          const d = e.data;
          if (!orders.has(d.razorpayOrderId))
            orders.set(d.razorpayOrderId, {
              razorpay_order_id: d.razorpayOrderId,
              reservation_id: '',
              user_id: d.userId,
              status: 'created',
              total_paise: d.amountPaise,
              payment_id: null,
              failures: 0,
              created_at: d.createdAt,
              expires_at: d.expiresAt,
              updated_at: d.createdAt,
            });
          return;
        }
        case 'PaymentOrderCreated': {
          const d = e.data;
          const row = orders.get(d.razorpayOrderId);
          if (row) {
            row.reservation_id = d.reservationId;
            row.total_paise = d.totalPaise;
          } else
            orders.set(d.razorpayOrderId, {
              razorpay_order_id: d.razorpayOrderId,
              reservation_id: d.reservationId,
              user_id: d.customer.userId,
              status: 'created',
              total_paise: d.totalPaise,
              payment_id: null,
              failures: 0,
              created_at: d.createdAt,
              expires_at: d.expiresAt,
              updated_at: d.createdAt,
            });
          return;
        }
        case 'PaymentVerified': {
          const row = orders.get(e.data.razorpayOrderId);
          if (row) {
            row.status = 'verified';
            row.payment_id = e.data.razorpayPaymentId;
            row.updated_at = e.data.verifiedAt;
          }
          return;
        }
        case 'PaymentOrderExpired': {
          const row = orders.get(e.data.razorpayOrderId);
          if (row) {
            row.status = 'expired';
            row.updated_at = e.data.expiredAt;
          }
          return;
        }
        case 'PaymentFailed': {
          const row = orders.get(e.data.razorpayOrderId);
          if (row) {
            row.failures = (row.failures as number) + 1;
            row.updated_at = e.data.failedAt;
          }
          return;
        }
      }
    },
    tables: () => [
      {
        table: 'checkout.payment_orders',
        columns: COLUMNS,
        rows: [...orders.values()].map((r) => COLUMNS.map((c) => r[c])),
      },
    ],
  };
}
