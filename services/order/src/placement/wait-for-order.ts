import type { VerifiedPaymentRef } from '@shop/shared/contracts/order-placement';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { orderStreamId } from '../order/events.ts';
import { ORDERS_PROJECTION } from '../read-models/orders/orders-projection.ts';
import { findOrderNumberByPayment, ORDER_PLACEMENT_CONSUMER } from './order-placement.ts';

/**
 * Read-your-writes for the payment verify answer: waits (bounded) until the placement has handled the
 * PaymentVerified at `paymentStreamVersion` of `payment-<razorpayOrderId>` and the orders projection shows
 * the order, then returns its number; null if the deadline passes first. Reads the `orders` schema: runs
 * only on the order service's context (other services go through OrderPlacementPort).
 */
export async function waitForOrderOfPayment(
  ctx: Pick<ServiceContext, 'pool' | 'waitForProjection'>,
  payment: VerifiedPaymentRef,
  timeoutMs = 5000,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  const placed = await ctx.waitForProjection({
    schema: 'orders',
    consumer: ORDER_PLACEMENT_CONSUMER,
    streamId: payment.paymentStreamId,
    version: payment.paymentStreamVersion,
    timeoutMs,
  });
  if (!placed) return null;
  const orderNumber = await findOrderNumberByPayment(ctx.pool, payment.razorpayOrderId);
  if (!orderNumber) return null;
  const shown = await ctx.waitForProjection({
    schema: 'orders',
    consumer: ORDERS_PROJECTION,
    streamId: orderStreamId(orderNumber),
    version: 1,
    timeoutMs: Math.max(1, deadline - Date.now()),
  });
  return shown ? orderNumber : null;
}
