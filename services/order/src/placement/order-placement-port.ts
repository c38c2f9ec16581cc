import {
  ORDER_OF_PAYMENT_DEFAULT_WAIT_MS,
  ORDER_OF_PAYMENT_MAX_WAIT_MS,
  type OrderPlacementPort,
} from '@shop/shared/contracts/order-placement';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { allocateOrderNumbers } from './order-numbers.ts';
import { waitForOrderOfPayment } from './wait-for-order.ts';

/** A wait the port accepts: whole milliseconds between 1 and ORDER_OF_PAYMENT_MAX_WAIT_MS. */
export const boundedWaitMs = (timeoutMs = ORDER_OF_PAYMENT_DEFAULT_WAIT_MS) =>
  Math.min(ORDER_OF_PAYMENT_MAX_WAIT_MS, Math.max(1, Math.round(timeoutMs)));

/**
 * The OrderPlacementPort served by the order service's own code on the order service's context: called
 * in-process by the all-in-one gateway, and behind /internal/orders/order-of-payment by the order process.
 */
export function inProcessOrderPlacement(ctx: Pick<ServiceContext, 'pool' | 'waitForProjection'>): OrderPlacementPort {
  return {
    orderOfPayment: (payment, timeoutMs) => waitForOrderOfPayment(ctx, payment, boundedWaitMs(timeoutMs)),
    allocateOrderNumbers: (count) => allocateOrderNumbers(ctx.pool, count),
  };
}
