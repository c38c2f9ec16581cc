import { z } from 'zod';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { decideOrder, evolveOrder, initialOrderState } from '../order/decider.ts';
import { orderStreamId } from '../order/events.ts';
import { findOrderNumberByPayment } from '../placement/order-placement.ts';

export const REFUND_RECORDING_CONSUMER = 'orders.refund-recording';

/** PaymentRefunded as this service relies on it: an event from another service is checked, not trusted. */
const PaymentRefundedData = z.object({
  razorpayOrderId: z.string().min(1),
  razorpayPaymentId: z.string().min(1),
  refundId: z.string().min(1),
  amountPaise: z.number().int().min(0),
  refundedAt: z.iso.datetime({ offset: true }),
});

/**
 * Process manager: checkout's PaymentRefunded of a cancelled order's payment becomes OrderRefunded on the
 * order (amount, the provider's reference; paymentStatus Refunded), appended in the delivery transaction.
 * A refund of any other payment (money that never became an order) finds no order, or the decider ignores
 * it; a redelivery decides nothing.
 */
export function refundRecording(store: PostgresEventStore): EventConsumer<RecordedEvent[]> {
  return {
    name: REFUND_RECORDING_CONSUMER,
    schema: 'orders',
    sources: ['checkout'],
    eventTypes: ['PaymentRefunded'],
    async handle(event, tx) {
      const { razorpayOrderId, ...refund } = PaymentRefundedData.parse(event.data);
      const orderNumber = await findOrderNumberByPayment(tx, razorpayOrderId);
      if (!orderNumber) return;
      const streamId = orderStreamId(orderNumber);
      const { state, version } = await store.aggregate(streamId, evolveOrder, initialOrderState(), tx);
      if (state.status !== 'placed') return;
      const events = decideOrder({ type: 'RecordOrderRefund', data: refund }, state);
      if (!events.length) return;
      const r = await store.append(streamId, version, events, {
        tx,
        metadata: { actor: 'refunds', causationId: event.eventId },
      });
      return r.events;
    },
    afterCommit(recorded) {
      for (const events of recorded) store.notifyAppended(events);
    },
  };
}
