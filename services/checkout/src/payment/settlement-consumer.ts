import type { EventConsumer } from '@shop/shared/bus/types';
import type { InventoryPort } from '@shop/shared/contracts/inventory';
import type { PaymentEvent, PaymentOrderCreated } from '@shop/shared/contracts/payment-events';
import type { CouponUses } from './payments.ts';

export const SETTLEMENT_CONSUMER = 'checkout.settlement';

/**
 * Turns a recorded payment into sales (stock committed, coupon use counted) and an expired one into
 * released holds. Both calls are idempotent, so an at-least-once redelivery does no harm.
 */
export function settlementConsumer(deps: {
  inventory: InventoryPort;
  coupons: CouponUses;
  loadOrder: (orderId: string) => Promise<PaymentOrderCreated['data'] | null>;
}): EventConsumer {
  return {
    name: SETTLEMENT_CONSUMER,
    schema: 'checkout',
    sources: ['checkout'],
    eventTypes: ['PaymentVerified', 'PaymentOrderExpired'],
    async handle(event) {
      const e = { type: event.type, data: event.data } as PaymentEvent;
      if (e.type === 'PaymentVerified') {
        await deps.inventory.commit(e.data.reservationId, e.data.holds);
        if (e.data.couponCode) await deps.coupons.commitUse(e.data.couponCode, e.data.reservationId);
      } else if (e.type === 'PaymentOrderExpired') {
        const order = await deps.loadOrder(e.data.razorpayOrderId);
        if (!order) return;
        await deps.inventory.release(e.data.reservationId, order.holds);
        if (order.couponCode) await deps.coupons.releaseUse(order.couponCode, e.data.reservationId);
      }
    },
  };
}
