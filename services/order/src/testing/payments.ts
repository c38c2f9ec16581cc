import { randomUUID } from 'node:crypto';
import type { PaymentEvent, PaymentVerified } from '@shop/shared/contracts/payment-events';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { waitForOrderOfPayment } from '../placement/wait-for-order.ts';

/** A PaymentVerified as checkout records it: two kurtas, a coupon, delivery charged. */
export function paymentVerifiedData(
  overrides: Partial<PaymentVerified['data']> & { userId?: string | null } = {},
): PaymentVerified['data'] {
  const { userId = null, ...rest } = overrides;
  const razorpayOrderId = rest.razorpayOrderId ?? `order_${randomUUID().slice(0, 14)}`;
  return {
    razorpayOrderId,
    razorpayPaymentId: `pay_${razorpayOrderId.slice(6)}`,
    reservationId: randomUUID(),
    holds: [],
    currency: 'INR',
    via: 'checkout',
    verifiedAt: '2026-11-22T10:15:00.000Z',
    customer: { userId, name: 'Asha Rao', email: 'asha@example.in', phone: '+919812345678' },
    address: '12 MG Road, Bengaluru, Karnataka',
    pincode: '560001',
    lines: [
      {
        productId: 'p-kurta',
        name: 'Linen Kurta',
        image: '/uploads/kurta.png',
        size: 'M',
        color: 'White',
        quantity: 2,
        unitPricePaise: 149950,
        lineTotalPaise: 299900,
      },
    ],
    subtotalPaise: 299900,
    couponCode: 'DIWALI10',
    discountPaise: 29990,
    shippingChargePaise: 0,
    deliveryChargePaise: 5000,
    totalPaise: 274910,
    ...rest,
  };
}

/**
 * Records a paid provider order in the checkout log the way checkout does (PaymentOrderCreated, then
 * PaymentVerified on `payment-<razorpayOrderId>`) and returns the PaymentVerified as recorded.
 */
export async function recordVerifiedPayment(
  checkout: PostgresEventStore,
  data: PaymentVerified['data'],
): Promise<RecordedEvent> {
  const { razorpayPaymentId: _p, via: _v, verifiedAt, ...priced } = data;
  const created: PaymentEvent = {
    type: 'PaymentOrderCreated',
    data: { ...priced, receipt: `rcpt_${Date.now()}`, createdAt: verifiedAt, expiresAt: verifiedAt },
  };
  const verified: PaymentEvent = { type: 'PaymentVerified', data };
  const r = await checkout.append(paymentStreamId(data.razorpayOrderId), 'no_stream', [created, verified]);
  return r.events[1]!;
}

/**
 * A paid order, placed as checkout's log makes it: records the payment (recordVerifiedPayment) on the
 * host's checkout log and waits until the order service has placed and listed its order; the order number.
 */
export async function placePaidOrder(
  ctx: Pick<ServiceContext, 'eventStore' | 'pool' | 'waitForProjection'>,
  data: PaymentVerified['data'],
): Promise<string> {
  const payment = await recordVerifiedPayment(ctx.eventStore('checkout'), data);
  const orderNumber = await waitForOrderOfPayment(ctx, {
    razorpayOrderId: data.razorpayOrderId,
    paymentStreamId: payment.streamId,
    paymentStreamVersion: payment.streamVersion,
  });
  if (!orderNumber) throw new Error('order not placed');
  return orderNumber;
}
