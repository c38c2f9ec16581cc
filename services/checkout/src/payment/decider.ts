import { ConflictError, ForbiddenError, NotFoundError } from '@shop/shared/errors/errors';
import type {
  PaymentEvent,
  PaymentOrderCreated,
  PaymentOrderOpened,
  PricedOrder,
} from '@shop/shared/contracts/payment-events';

/** The provider order and what it pays for, as checkout tracks it (`payment-<razorpayOrderId>`). */
export type PaymentOrderState =
  | { status: 'none' }
  /** Opened without a cart (priced at verify); lapsed = expired before that. */
  | { status: 'open' | 'lapsed'; opened: PaymentOrderOpened['data']; failures: number }
  | {
      status: 'created' | 'verified' | 'expired';
      order: PaymentOrderCreated['data'];
      /** Set once verified. */
      paymentId: string | null;
      failures: number;
    };

export type PaymentCommand =
  | { type: 'OpenPaymentOrder'; data: PaymentOrderOpened['data'] }
  | { type: 'CreatePaymentOrder'; data: PaymentOrderCreated['data'] }
  | { type: 'VerifyPayment'; data: { paymentId: string; via: 'checkout' | 'webhook' | 'reconciliation'; now: Date } }
  | { type: 'ExpirePaymentOrder'; data: { now: Date } }
  | { type: 'RecordPaymentFailure'; data: { reason: string; now: Date } };

export const initialPaymentState = (): PaymentOrderState => ({ status: 'none' });

export function evolvePayment(state: PaymentOrderState, event: PaymentEvent): PaymentOrderState {
  switch (event.type) {
    case 'PaymentOrderOpened':
      return { status: 'open', opened: event.data, failures: 0 };
    case 'PaymentOrderCreated':
      return { status: 'created', order: event.data, paymentId: null, failures: 0 };
    case 'PaymentVerified':
      return state.status === 'none' || !('order' in state)
        ? state
        : { ...state, status: 'verified', paymentId: event.data.razorpayPaymentId };
    case 'PaymentOrderExpired':
      if (state.status === 'none') return state;
      return 'order' in state ? { ...state, status: 'expired' } : { ...state, status: 'lapsed' };
    case 'PaymentFailed':
      return state.status === 'none' ? state : { ...state, failures: state.failures + 1 };
  }
}

/** Thrown when money arrived for a reservation that had already lapsed: the payment is to be refunded. */
export class PaymentAfterExpiryError extends ConflictError {
  constructor() {
    super('Your payment arrived after the reservation expired; it will be refunded. Please place the order again.');
  }
}

/**
 * Whether a cart from `userId` (null = a guest) may be attached to an order opened without one. An order
 * opened by an account belongs to that account. A guest-opened order goes to whoever holds its signed
 * payment (the provider hands that only to the paying browser): its address may change mid-payment (a phone
 * leaving Wi-Fi for the UPI app), so it is no proof of anything.
 */
export function mayPriceOpenedOrder(opened: PaymentOrderOpened['data'], userId: string | null): boolean {
  return opened.userId === null || opened.userId === userId;
}

export function decidePayment(command: PaymentCommand, state: PaymentOrderState): PaymentEvent[] {
  switch (command.type) {
    case 'OpenPaymentOrder':
      if (state.status !== 'none') throw new ConflictError('Payment order already exists');
      return [{ type: 'PaymentOrderOpened', data: command.data }];
    case 'CreatePaymentOrder': {
      // An opened order gets its cart (priced by the server) when its payment is verified.
      const pricingOpened = state.status === 'open' && state.opened.razorpayOrderId === command.data.razorpayOrderId;
      if (state.status !== 'none' && !pricingOpened) throw new ConflictError('Payment order already exists');
      if (pricingOpened && !mayPriceOpenedOrder(state.opened, command.data.customer.userId))
        throw new ForbiddenError('Payment verification failed');
      return [{ type: 'PaymentOrderCreated', data: command.data }];
    }
    case 'VerifyPayment': {
      if (state.status === 'none') throw new NotFoundError('Payment order not found');
      if (!('order' in state)) {
        throw state.status === 'lapsed'
          ? new PaymentAfterExpiryError()
          : new ConflictError('The order details are needed to verify this payment');
      }
      // Exactly once per provider order: a retried, concurrent or webhook-driven verify changes nothing.
      if (state.status === 'verified') return [];
      if (state.status === 'expired') throw new PaymentAfterExpiryError();
      const { expiresAt: _e, createdAt: _c, receipt: _r, ...rest } = state.order;
      return [
        {
          type: 'PaymentVerified',
          data: {
            ...rest,
            razorpayPaymentId: command.data.paymentId,
            via: command.data.via,
            verifiedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'ExpirePaymentOrder':
      if (state.status === 'open') {
        return [
          {
            type: 'PaymentOrderExpired',
            data: {
              razorpayOrderId: state.opened.razorpayOrderId,
              reservationId: '',
              expiredAt: command.data.now.toISOString(),
            },
          },
        ];
      }
      if (state.status !== 'created') return [];
      return [
        {
          type: 'PaymentOrderExpired',
          data: {
            razorpayOrderId: state.order.razorpayOrderId,
            reservationId: state.order.reservationId,
            expiredAt: command.data.now.toISOString(),
          },
        },
      ];
    case 'RecordPaymentFailure':
      if (state.status === 'open') {
        return [
          {
            type: 'PaymentFailed',
            data: {
              razorpayOrderId: state.opened.razorpayOrderId,
              reason: command.data.reason,
              failedAt: command.data.now.toISOString(),
            },
          },
        ];
      }
      if (state.status !== 'created') return [];
      return [
        {
          type: 'PaymentFailed',
          data: {
            razorpayOrderId: state.order.razorpayOrderId,
            reason: command.data.reason,
            failedAt: command.data.now.toISOString(),
          },
        },
      ];
    default: {
      const never: never = command;
      throw new Error(`Unknown command ${JSON.stringify(never)}`);
    }
  }
}

/** total = max(0, subtotal - discount) + shipping + delivery (seed 000 section 9). */
export function orderTotalPaise(
  p: Pick<PricedOrder, 'subtotalPaise' | 'discountPaise' | 'shippingChargePaise' | 'deliveryChargePaise'>,
): number {
  return Math.max(0, p.subtotalPaise - p.discountPaise) + p.shippingChargePaise + p.deliveryChargePaise;
}
