import type { ReservedLine } from '@shop/shared/contracts/inventory';
import { ConflictError, ForbiddenError, NotFoundError } from '@shop/shared/errors/errors';
import type {
  ExpiryReason,
  PaymentEvent,
  PaymentOrderCreated,
  PaymentOrderOpened,
  PricedOrder,
  RefundReason,
} from '@shop/shared/contracts/payment-events';

/** The refunds of payments taken on this order that cannot become an order, by provider payment id. */
export type PaymentRefunds = Readonly<Record<string, 'due' | 'refunded'>>;

/** The provider order and what it pays for, as checkout tracks it (`payment-<razorpayOrderId>`). */
export type PaymentOrderState =
  | { status: 'none' }
  /** Opened without a cart (priced at verify); lapsed = expired before that. */
  | { status: 'open' | 'lapsed'; opened: PaymentOrderOpened['data']; failures: number; refunds: PaymentRefunds }
  | {
      status: 'created' | 'verified' | 'expired';
      order: PaymentOrderCreated['data'];
      /** Set once verified. */
      paymentId: string | null;
      /** The order the verified payment becomes (null: recorded without a number, the placement numbers it). */
      orderNumber?: string | null;
      failures: number;
      refunds: PaymentRefunds;
      /** Why it expired (set once expired; 'lapsed' for events recorded before the reason was kept). */
      endedBy?: ExpiryReason;
    };

export type PaymentCommand =
  | { type: 'OpenPaymentOrder'; data: PaymentOrderOpened['data'] }
  | { type: 'CreatePaymentOrder'; data: PaymentOrderCreated['data'] }
  /** `orderNumber`: the order's number if the payment is recorded now (null when none could be had). */
  | {
      type: 'VerifyPayment';
      data: {
        paymentId: string;
        via: 'checkout' | 'webhook' | 'reconciliation';
        now: Date;
        orderNumber: string | null;
      };
    }
  | { type: 'ExpirePaymentOrder'; data: { now: Date; reason?: ExpiryReason } }
  /** The payment dialog opened: the hold lasts until `expiresAt` (the full reservation time). */
  | { type: 'OpenPaymentDialog'; data: { expiresAt: string; now: Date } }
  /** A payment for a cancelled or replaced order whose stock was held again (a new reservation). */
  | {
      type: 'RevivePaymentOrder';
      data: {
        reservationId: string;
        holds: ReservedLine[];
        paymentId: string;
        via: 'checkout' | 'webhook' | 'reconciliation';
        now: Date;
        orderNumber: string | null;
      };
    }
  | { type: 'RecordPaymentFailure'; data: { reason: string; now: Date } }
  /** Money was taken for this order and cannot become an order (`customerEmail`: when the state lacks it). */
  | {
      type: 'RecordRefundDue';
      data: { paymentId: string; reason: RefundReason; detail: string; customerEmail: string | null; now: Date };
    }
  | { type: 'RecordRefund'; data: { paymentId: string; refundId: string; amountPaise: number; now: Date } };

export const initialPaymentState = (): PaymentOrderState => ({ status: 'none' });

/** The payment order's decider, for decideAndAppend. */
export const PAYMENT = { decide: decidePayment, evolve: evolvePayment, initialState: initialPaymentState };

export function evolvePayment(state: PaymentOrderState, event: PaymentEvent): PaymentOrderState {
  switch (event.type) {
    case 'PaymentOrderOpened':
      return { status: 'open', opened: event.data, failures: 0, refunds: {} };
    case 'PaymentOrderCreated':
      // An opened order priced at verify keeps what it had recorded (a refund due for an earlier payment).
      return {
        status: 'created',
        order: event.data,
        paymentId: null,
        failures: 0,
        refunds: state.status === 'none' ? {} : state.refunds,
      };
    case 'PaymentVerified':
      return state.status === 'none' || !('order' in state)
        ? state
        : {
            ...state,
            status: 'verified',
            paymentId: event.data.razorpayPaymentId,
            orderNumber: event.data.orderNumber ?? null,
          };
    case 'PaymentDialogOpened':
      if (state.status === 'none') return state;
      return 'order' in state
        ? { ...state, order: { ...state.order, expiresAt: event.data.expiresAt } }
        : { ...state, opened: { ...state.opened, expiresAt: event.data.expiresAt } };
    case 'PaymentOrderExpired':
      if (state.status === 'none') return state;
      return 'order' in state
        ? { ...state, status: 'expired', endedBy: event.data.reason ?? 'lapsed' }
        : { ...state, status: 'lapsed' };
    case 'PaymentOrderRevived':
      return state.status === 'none' || !('order' in state)
        ? state
        : {
            ...state,
            status: 'created',
            endedBy: undefined,
            order: { ...state.order, reservationId: event.data.reservationId, holds: event.data.holds },
          };
    case 'PaymentFailed':
      return state.status === 'none' ? state : { ...state, failures: state.failures + 1 };
    case 'RefundDue':
      return state.status === 'none'
        ? state
        : { ...state, refunds: { ...state.refunds, [event.data.razorpayPaymentId]: 'due' } };
    case 'PaymentRefunded':
      return state.status === 'none'
        ? state
        : { ...state, refunds: { ...state.refunds, [event.data.razorpayPaymentId]: 'refunded' } };
  }
}

/** The amount the provider order charges (paise): every payment captured on it took this much. */
export function chargedPaise(state: Exclude<PaymentOrderState, { status: 'none' }>): number {
  return 'order' in state ? state.order.totalPaise : state.opened.amountPaise;
}

/** The provider order's id, whether it was opened without a cart or created with one. */
const providerOrderId = (state: Exclude<PaymentOrderState, { status: 'none' }>): string =>
  'order' in state ? state.order.razorpayOrderId : state.opened.razorpayOrderId;

/**
 * The provider order and its reservation while the order still awaits its payment (open: no reservation
 * yet, so ''; created); null once verified, expired or lapsed.
 */
function awaitingPayment(state: PaymentOrderState): { razorpayOrderId: string; reservationId: string } | null {
  if (state.status === 'open') return { razorpayOrderId: state.opened.razorpayOrderId, reservationId: '' };
  if (state.status === 'created')
    return { razorpayOrderId: state.order.razorpayOrderId, reservationId: state.order.reservationId };
  return null;
}

/** The order a verified payment becomes (null: not verified, or recorded without a number). */
export function orderNumberOf(state: PaymentOrderState): string | null {
  return state.status === 'verified' ? (state.orderNumber ?? null) : null;
}

/** Who opened the order (`user:<id>` / `guest:<id>`); null for orders recorded before it was kept. */
export function buyerKeyOfOrder(state: Exclude<PaymentOrderState, { status: 'none' }>): string | null {
  return ('order' in state ? state.order.buyerKey : state.opened.buyerKey) ?? null;
}

/**
 * Whether a payment arriving for this order now may still place it, with its stock held again: its buyer
 * ended it (cancelled the dialog, the payment failed, a newer checkout replaced it), not the clock.
 */
export function mayRevive(state: PaymentOrderState): boolean {
  return state.status === 'expired' && state.endedBy !== undefined && state.endedBy !== 'lapsed';
}

/** Thrown when money arrived for a reservation that had already lapsed: the payment is to be refunded. */
export class PaymentAfterExpiryError extends ConflictError {
  constructor() {
    super(
      'Your payment arrived after the reservation expired; it will be refunded. If you still want the items, please place the order again.',
    );
  }
}

/** Thrown when a payment whose refund is already due is presented again: it never becomes an order. */
export class PaymentRefundDueError extends ConflictError {
  constructor() {
    super(
      'This payment could not be accepted; it will be refunded. If you still want the items, please place the order again.',
    );
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
      // A payment already being refunded (stock was gone, the amount was wrong) never becomes an order later.
      if (state.refunds[command.data.paymentId]) throw new PaymentRefundDueError();
      if (!('order' in state)) {
        throw state.status === 'lapsed'
          ? new PaymentAfterExpiryError()
          : new ConflictError('The order details are needed to verify this payment');
      }
      // Exactly once per provider order: a retried, concurrent or webhook-driven verify changes nothing.
      if (state.status === 'verified') return [];
      if (state.status === 'expired') throw new PaymentAfterExpiryError();
      const { expiresAt: _e, createdAt: _c, receipt: _r, buyerKey: _b, ...rest } = state.order;
      const { orderNumber } = command.data;
      return [
        {
          type: 'PaymentVerified',
          data: {
            ...rest,
            razorpayPaymentId: command.data.paymentId,
            via: command.data.via,
            verifiedAt: command.data.now.toISOString(),
            ...(orderNumber ? { orderNumber } : {}),
          },
        },
      ];
    }
    case 'ExpirePaymentOrder': {
      const awaiting = awaitingPayment(state);
      if (!awaiting) return [];
      return [
        {
          type: 'PaymentOrderExpired',
          data: { ...awaiting, expiredAt: command.data.now.toISOString(), reason: command.data.reason ?? 'lapsed' },
        },
      ];
    }
    case 'OpenPaymentDialog': {
      const awaiting = awaitingPayment(state);
      if (!awaiting) return [];
      // The dialog lengthens the hold, never shortens it, however often it opens.
      const heldUntil = 'order' in state ? state.order.expiresAt : 'opened' in state ? state.opened.expiresAt : '';
      if (Date.parse(command.data.expiresAt) <= Date.parse(heldUntil)) return [];
      return [
        {
          type: 'PaymentDialogOpened',
          data: {
            razorpayOrderId: awaiting.razorpayOrderId,
            expiresAt: command.data.expiresAt,
            openedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RevivePaymentOrder': {
      if (state.status === 'none') throw new NotFoundError('Payment order not found');
      if (state.refunds[command.data.paymentId]) throw new PaymentRefundDueError();
      if (!mayRevive(state) || !('order' in state)) throw new PaymentAfterExpiryError();
      const revived: PaymentEvent = {
        type: 'PaymentOrderRevived',
        data: {
          razorpayOrderId: state.order.razorpayOrderId,
          reservationId: command.data.reservationId,
          holds: command.data.holds,
          revivedAt: command.data.now.toISOString(),
        },
      };
      const { reservationId: _r, holds: _h, ...verify } = command.data;
      return [revived, ...decidePayment({ type: 'VerifyPayment', data: verify }, evolvePayment(state, revived))];
    }
    case 'RecordPaymentFailure': {
      const awaiting = awaitingPayment(state);
      if (!awaiting) return [];
      return [
        {
          type: 'PaymentFailed',
          data: {
            razorpayOrderId: awaiting.razorpayOrderId,
            reason: command.data.reason,
            failedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordRefundDue': {
      if (state.status === 'none') throw new NotFoundError('Payment order not found');
      const { paymentId } = command.data;
      // Once per payment, however many webhooks, verifies and retries report it.
      if (state.refunds[paymentId]) return [];
      // The payment the order was made from is the sale itself, refunded only when the order is cancelled.
      if (state.status === 'verified' && state.paymentId === paymentId && command.data.reason !== 'order_cancelled')
        throw new ConflictError('This payment placed the order; it is not refunded');
      return [
        {
          type: 'RefundDue',
          data: {
            razorpayOrderId: providerOrderId(state),
            razorpayPaymentId: paymentId,
            amountPaise: chargedPaise(state),
            reason: command.data.reason,
            detail: command.data.detail,
            customerEmail: 'order' in state ? state.order.customer.email : command.data.customerEmail,
            dueAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordRefund': {
      if (state.status === 'none') throw new NotFoundError('Payment order not found');
      const refund = state.refunds[command.data.paymentId];
      if (refund === 'refunded') return [];
      if (refund !== 'due') throw new ConflictError('No refund is due for this payment');
      return [
        {
          type: 'PaymentRefunded',
          data: {
            razorpayOrderId: providerOrderId(state),
            razorpayPaymentId: command.data.paymentId,
            refundId: command.data.refundId,
            amountPaise: command.data.amountPaise,
            refundedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
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
