import { z } from 'zod';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { OrderCancelled } from '@shop/shared/contracts/order-cancellation';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { PAYMENT, type PaymentCommand } from '../payment/decider.ts';
import type { PendingSettlements } from '../settlement/settlement-consumer.ts';

export const CANCELLATION_CONSUMER = 'checkout.cancellation';

/** OrderCancelled as checkout relies on it: an event from another service is checked, not trusted. */
const OrderCancelledData = z.object({
  orderNumber: z.string().min(1),
  reason: z.string(),
  cancelledAs: z.enum(['shopper', 'admin']),
  cancelledAt: z.iso.datetime({ offset: true }),
  razorpayOrderId: z.string().min(1),
  razorpayPaymentId: z.string().min(1),
  couponCode: z.string().nullable(),
}) satisfies z.ZodType<Partial<OrderCancelled['data']>>;

/**
 * Process manager: a cancelled order's sale is undone. In the bus transaction it records, on the payment's
 * stream, that the payment is to be refunded (RefundDue, reason order_cancelled: once per payment, whatever
 * redelivers it; the refunding consumer then issues it through the provider exactly once, refunds.ts), and
 * queues the return of the reservation's stock and coupon use (checkout.pending_settlements, action
 * return). Nothing is called here; after the commit the settlement runner is kicked.
 */
export function cancellationConsumer(deps: {
  store: PostgresEventStore;
  settlements: PendingSettlements;
}): EventConsumer<RecordedEvent[]> {
  const { store, settlements } = deps;
  return {
    name: CANCELLATION_CONSUMER,
    schema: 'checkout',
    sources: ['orders'],
    eventTypes: ['OrderCancelled'],
    async handle(event, tx) {
      const d = OrderCancelledData.parse(event.data);
      const streamId = paymentStreamId(d.razorpayOrderId);
      const { state, version } = await store.aggregate(streamId, PAYMENT.evolve, PAYMENT.initialState(), tx);
      if (!('order' in state)) throw new Error(`No payment order ${d.razorpayOrderId} for ${d.orderNumber}`);
      await settlements.record(tx, state.order.reservationId, 'return', d.couponCode);
      const command: PaymentCommand = {
        type: 'RecordRefundDue',
        data: {
          paymentId: d.razorpayPaymentId,
          reason: 'order_cancelled',
          detail: `Order ${d.orderNumber} cancelled by the ${d.cancelledAs}: ${d.reason}`,
          customerEmail: null,
          // The cancellation's time, so the refund reads the same however often it is delivered.
          now: new Date(d.cancelledAt),
        },
      };
      const events = PAYMENT.decide(command, state);
      if (!events.length) return [];
      const r = await store.append(streamId, version, events, {
        tx,
        metadata: { actor: 'cancellation', causationId: event.eventId, correlationId: d.orderNumber },
      });
      return r.events;
    },
    afterCommit(appended) {
      for (const events of appended) store.notifyAppended(events);
      settlements.kick();
    },
  };
}
