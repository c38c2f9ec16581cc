import type pg from 'pg';
import { z } from 'zod';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { PaymentVerified } from '@shop/shared/contracts/payment-events';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { decideOrder, initialOrderState } from '../order/decider.ts';
import { ORDER_NUMBER_FORMAT, orderStreamId, type OrderDetails } from '../order/events.ts';
import { allocateOrderNumbers } from './order-numbers.ts';

export const ORDER_PLACEMENT_CONSUMER = 'orders.placement';

const paise = z.number().int().min(0);
const text = z.string();
/** PaymentVerified as this service relies on it: an event from another service is checked, not trusted. */
const PaymentVerifiedData = z.object({
  razorpayOrderId: z.string().min(1),
  razorpayPaymentId: z.string().min(1),
  customer: z.object({ userId: z.string().min(1).nullable(), name: text, email: text, phone: text }),
  address: text,
  pincode: text,
  lines: z
    .array(
      z.object({
        productId: z.string().min(1),
        name: text,
        image: text,
        size: text.nullable(),
        color: text.nullable(),
        quantity: z.number().int().min(1),
        unitPricePaise: paise,
        lineTotalPaise: paise,
      }),
    )
    .min(1),
  subtotalPaise: paise,
  couponCode: text.nullable(),
  discountPaise: paise,
  shippingChargePaise: paise,
  deliveryChargePaise: paise,
  totalPaise: paise,
  verifiedAt: z.iso.datetime({ offset: true }),
  orderNumber: z.string().regex(ORDER_NUMBER_FORMAT).optional(),
}) satisfies z.ZodType<Partial<PaymentVerified['data']>>;

/**
 * Process manager: a verified payment becomes an order (purchase saga step 4). Everything happens in the
 * delivery transaction `tx`, together with the bus's dedupe claim: the payment_orders row (the provider
 * order's one order) under the order number checkout recorded in PaymentVerified (and answered verify with),
 * and the OrderPlaced append. A redelivered PaymentVerified is skipped by the claim; a second
 * PaymentVerified for the same provider order, or two deliveries racing (the INSERT waits on the other's
 * uncommitted row), finds the row and places nothing. No other service is called. The events it appended
 * are its after-commit effect: announced in-process once committed.
 */
export function orderPlacement(store: PostgresEventStore): EventConsumer<RecordedEvent[]> {
  return {
    name: ORDER_PLACEMENT_CONSUMER,
    schema: 'orders',
    sources: ['checkout'],
    eventTypes: ['PaymentVerified'],
    async handle(event, tx) {
      const payment = PaymentVerifiedData.parse(event.data);
      const orderNumber = await claimOrderNumber(tx, payment);
      if (!orderNumber) return;
      const { customer, verifiedAt, ...rest } = payment;
      const order: OrderDetails = {
        orderNumber,
        razorpayOrderId: rest.razorpayOrderId,
        razorpayPaymentId: rest.razorpayPaymentId,
        userId: customer.userId,
        customer: { name: customer.name, email: customer.email, phone: customer.phone },
        address: rest.address,
        pincode: rest.pincode,
        lines: rest.lines,
        subtotalPaise: rest.subtotalPaise,
        couponCode: rest.couponCode,
        discountPaise: rest.discountPaise,
        shippingChargePaise: rest.shippingChargePaise,
        deliveryChargePaise: rest.deliveryChargePaise,
        totalPaise: rest.totalPaise,
      };
      // placedAt is the verification time carried by the event, so the order reads the same on any replay.
      const events = decideOrder(
        { type: 'PlaceOrder', data: { order, now: new Date(verifiedAt) } },
        initialOrderState(),
      );
      const r = await store.append(orderStreamId(orderNumber), 'no_stream', events, {
        tx,
        metadata: {
          actor: customer.userId ?? 'guest',
          causationId: event.eventId,
          correlationId:
            typeof event.metadata.correlationId === 'string' ? event.metadata.correlationId : payment.razorpayOrderId,
        },
      });
      return r.events;
    },
    afterCommit(placed) {
      for (const events of placed) store.notifyAppended(events);
    },
  };
}

/**
 * Takes the provider order's one order number in orders.payment_orders: the one its PaymentVerified carries,
 * else (recorded before numbers were kept, or when none could be had) the next one. Null when the provider
 * order has its order already.
 */
async function claimOrderNumber(
  tx: pg.PoolClient,
  payment: { razorpayOrderId: string; verifiedAt: string; orderNumber?: string | undefined },
): Promise<string | null> {
  let orderNumber = payment.orderNumber;
  if (!orderNumber) {
    // A plain read first, so the usual redelivery does not use up a sequence number.
    if ((await findOrderNumberByPayment(tx, payment.razorpayOrderId)) !== null) return null;
    [orderNumber] = await allocateOrderNumbers(tx, 1);
  }
  const { rows } = await tx.query<{ order_number: string }>(
    `INSERT INTO orders.payment_orders (razorpay_order_id, order_number, placed_at) VALUES ($1, $2, $3)
     ON CONFLICT (razorpay_order_id) DO NOTHING
     RETURNING order_number`,
    [payment.razorpayOrderId, orderNumber, payment.verifiedAt],
  );
  return rows[0]?.order_number ?? null;
}

/** The order number placed for a provider order, or null while (or if) there is none. */
export async function findOrderNumberByPayment(
  db: pg.Pool | pg.PoolClient,
  razorpayOrderId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ order_number: string }>(
    'SELECT order_number FROM orders.payment_orders WHERE razorpay_order_id = $1',
    [razorpayOrderId],
  );
  return rows[0]?.order_number ?? null;
}
