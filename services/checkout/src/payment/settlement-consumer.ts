import type { EventConsumer } from '@shop/shared/bus/types';
import type { InventoryPort } from '@shop/shared/contracts/inventory';
import type { PaymentEvent, PaymentOrderCreated } from '@shop/shared/contracts/payment-events';
import type { LiveCheckouts } from './live-checkouts.ts';
import type { CouponUses } from './ports.ts';

export const SETTLEMENT_CONSUMER = 'checkout.settlement';

/**
 * Turns a recorded payment into sales (stock committed, coupon use counted) and an expired one into
 * released holds; either way the buyer's live-checkout place is given back. All calls are idempotent, so
 * an at-least-once redelivery does no harm.
 */
export function settlementConsumer(deps: {
  inventory: InventoryPort;
  coupons: CouponUses;
  liveCheckouts: LiveCheckouts;
  loadOrder: (orderId: string) => Promise<PaymentOrderCreated['data'] | null>;
}): EventConsumer {
  return {
    name: SETTLEMENT_CONSUMER,
    schema: 'checkout',
    sources: ['checkout'],
    eventTypes: ['PaymentVerified', 'PaymentOrderExpired'],
    async handle(event, tx) {
      const e = { type: event.type, data: event.data } as PaymentEvent;
      if (e.type === 'PaymentVerified' || e.type === 'PaymentOrderExpired')
        await deps.liveCheckouts.release(e.data.reservationId, tx);
      if (e.type === 'PaymentVerified') {
        await deps.inventory.commit(e.data.reservationId);
        if (e.data.couponCode) await deps.coupons.commitUse(e.data.couponCode, e.data.reservationId);
      } else if (e.type === 'PaymentOrderExpired') {
        await deps.inventory.release(e.data.reservationId, 'expired');
        const order = await deps.loadOrder(e.data.razorpayOrderId);
        if (order?.couponCode) await deps.coupons.releaseUse(order.couponCode, e.data.reservationId);
      }
    },
  };
}
