import { paymentStreamId, type PaymentEvent, type RefundReason } from '@shop/shared/contracts/payment-events';
import { ConflictError, NotFoundError } from '@shop/shared/errors/errors';
import { decideAndAppend, decideOnStream } from '@shop/shared/eventstore/command';
import { StreamVersionConflictError } from '@shop/shared/eventstore/postgres-event-store';
import {
  buyerKeyOfOrder,
  decidePayment,
  evolvePayment,
  initialPaymentState,
  mayRevive,
  orderNumberOf,
  PAYMENT,
  PaymentAfterExpiryError,
  PaymentRefundDueError,
  type PaymentCommand,
  type PaymentOrderState,
} from './decider.ts';
import { expiryOf, releaseHolds } from './hold-and-price.ts';
import type { PaymentPorts } from './ports.ts';

/**
 * What recording a payment needs; with the inventory and coupons (the shop's Payments always has them) a
 * payment for an order its buyer cancelled or replaced holds the stock again and places the order.
 */
type Ports = Pick<PaymentPorts, 'store' | 'clock'> &
  Partial<Pick<PaymentPorts, 'inventory' | 'coupons' | 'logger' | 'reservationTtlMs' | 'orderNumbers'>>;

/** A recorded payment: the stream's version after it, and the order it becomes (null: the placement numbers it). */
export interface RecordedPayment {
  version: number;
  orderNumber: string | null;
}

/** The payment order's stream as just read: a command decides on it without reading it again. */
export type LoadedPayment = { state: PaymentOrderState; version: number };

/**
 * Runs `record` with a fresh order number (null when none can be had) for the PaymentVerified it may append,
 * and gives the number back when it certainly was not recorded: `record` answered that it appended nothing,
 * or the decider refused, or every attempt lost the stream to another writer (conflict, not-found). Any other
 * failure may have committed: that number is never handed out again.
 */
export async function withOrderNumber<T>(
  p: Ports,
  record: (orderNumber: string | null) => Promise<{ result: T; appended: boolean }>,
): Promise<T> {
  const orderNumber = (await p.orderNumbers?.take()) ?? null;
  let outcome: { result: T; appended: boolean };
  try {
    outcome = await record(orderNumber);
  } catch (err) {
    if (orderNumber && (err instanceof ConflictError || err instanceof NotFoundError))
      p.orderNumbers?.giveBack(orderNumber);
    throw err;
  }
  if (orderNumber && !outcome.appended) p.orderNumbers?.giveBack(orderNumber);
  return outcome.result;
}

/** The payment order's state and version, folded from its stream. */
export function loadPayment(p: Pick<PaymentPorts, 'store'>, orderId: string): Promise<LoadedPayment> {
  return p.store.aggregate<PaymentOrderState, PaymentEvent>(
    paymentStreamId(orderId),
    evolvePayment,
    initialPaymentState(),
  );
}

/**
 * Records PaymentVerified unless already recorded (any path: browser, webhook, reconciliation), with the order
 * number the order will have, and answers it. A payment for an order whose hold had lapsed is recorded as a
 * refund due before PaymentAfterExpiryError is thrown. `loaded`: the stream as the caller just read it.
 */
export async function recordPaid(
  p: Ports,
  orderId: string,
  paymentId: string,
  via: 'checkout' | 'webhook' | 'reconciliation',
  loaded?: LoadedPayment,
): Promise<RecordedPayment> {
  try {
    return await recordVerified(p, orderId, paymentId, via, loaded);
  } catch (err) {
    if (!(err instanceof PaymentAfterExpiryError)) throw err;
    const revived = await revive(p, orderId, paymentId, via);
    if (revived.placed) return { version: revived.version, orderNumber: revived.orderNumber };
    try {
      await recordRefundDue(p, orderId, {
        paymentId,
        reason: 'paid_after_expiry',
        detail: revived.why ?? `Payment captured after the reservation expired (reported by ${via})`,
      });
    } catch (refusal) {
      // A concurrent report of this payment placed the order meanwhile: that is the answer.
      const now = await loadPayment(p, orderId);
      if (now.state.status === 'verified' && now.state.paymentId === paymentId)
        return { version: now.version, orderNumber: orderNumberOf(now.state) };
      throw refusal;
    }
    // Refunded: a revival hold this payment may have left (a report that held stock, then lost) goes back.
    if (p.inventory && p.coupons && p.logger)
      await releaseHolds(
        { inventory: p.inventory, coupons: p.coupons, logger: p.logger },
        { reservationId: revivalReservationId(paymentId), couponCode: null },
      );
    // A checkout its buyer ended (cancelled, failed, replaced by a newer one) did not expire: its payment could
    // not be accepted, whichever report (verify or a webhook) came first. Only a lapsed hold's payment arrived
    // after the reservation expired.
    if (mayRevive((await loadPayment(p, orderId)).state)) throw new PaymentRefundDueError();
    throw err;
  }
}

/** The reservation a payment for an ended order holds its stock under: one per payment, whoever reports it. */
export const revivalReservationId = (paymentId: string) => `revive-${paymentId}`;

/**
 * A payment for an order its buyer ended (cancelled, failed, replaced by a newer checkout) still places it
 * when its stock (and coupon use) can be held again now, under a new reservation; the order's prices stay
 * what was charged. Answers placed: false (with why, for the refund) when it cannot: the caller then records
 * the refund. Concurrent reports of the payment (verify, webhook, sweep) hold the same reservation (one per
 * payment, idempotent), so they all see the stock or none does; one appends, the others find it verified.
 */
async function revive(
  p: Ports,
  orderId: string,
  paymentId: string,
  via: 'checkout' | 'webhook' | 'reconciliation',
): Promise<{ placed: true; version: number; orderNumber: string | null } | { placed: false; why: string | null }> {
  const { inventory, coupons, logger } = p;
  const reservationId = revivalReservationId(paymentId);
  let heldHere: { reservationId: string; couponCode: string | null } | null = null;
  for (let attempt = 0; attempt < 10; attempt++) {
    const { state, version } = await loadPayment(p, orderId);
    if (state.status === 'verified' && state.paymentId === paymentId)
      return { placed: true, version, orderNumber: orderNumberOf(state) };
    if (!inventory || !coupons || !logger || !mayRevive(state) || !('order' in state) || state.refunds[paymentId]) {
      // Decided otherwise meanwhile (a refund, once the stock was gone for another report): nobody commits
      // the revival hold this report took, so it goes back.
      if (heldHere && inventory && coupons && logger) await releaseHolds({ inventory, coupons, logger }, heldHere);
      return { placed: false, why: null };
    }
    const held = await inventory.reserve(
      reservationId,
      state.order.lines.map((l) => ({ productId: l.productId, size: l.size, color: l.color, quantity: l.quantity })),
    );
    if (!held.ok)
      return { placed: false, why: `Paid after the buyer's checkout ended (${state.endedBy}), and ${held.message}` };
    const { couponCode } = state.order;
    if (couponCode) {
      try {
        await coupons.reserveUse({
          code: couponCode,
          reservationId,
          orderTotalPaise: state.order.subtotalPaise,
          buyers: [buyerKeyOfOrder(state) ?? `order:${orderId}`],
          heldUntil: expiryOf({ reservationTtlMs: p.reservationTtlMs ?? 0 }, p.clock()),
        });
      } catch (err) {
        await releaseHolds({ inventory, coupons, logger }, { reservationId, couponCode: null });
        return {
          placed: false,
          why: `Paid after the buyer's checkout ended (${state.endedBy}), and coupon ${couponCode}: ${(err as Error).message}`,
        };
      }
    }
    heldHere = { reservationId, couponCode };
    const placed = await withOrderNumber(p, async (orderNumber) => {
      const events = decidePayment(
        {
          type: 'RevivePaymentOrder',
          data: { reservationId, holds: held.lines, paymentId, via, now: p.clock(), orderNumber },
        },
        state,
      );
      const r = await p.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: via } });
      return { result: { version: r.nextExpectedVersion, orderNumber }, appended: true };
    }).catch((err: unknown) => {
      // Another report of this payment may have appended with this very reservation: never released here.
      if (err instanceof StreamVersionConflictError) return null;
      throw err;
    });
    if (placed) {
      logger.info({ orderId, paymentId, endedBy: state.endedBy }, 'payment for an ended checkout: stock held again');
      return { placed: true, ...placed };
    }
  }
  return { placed: false, why: null };
}

async function recordVerified(
  p: Ports,
  orderId: string,
  paymentId: string,
  via: 'checkout' | 'webhook' | 'reconciliation',
  loaded?: LoadedPayment,
): Promise<RecordedPayment> {
  return withOrderNumber(p, async (orderNumber) => {
    const decision = await decideOnStream(
      p.store,
      paymentStreamId(orderId),
      PAYMENT,
      (): PaymentCommand => ({ type: 'VerifyPayment', data: { paymentId, via, now: p.clock(), orderNumber } }),
      { actor: via, maxAttempts: 10, loaded },
    );
    const state = decision.events.reduce(evolvePayment, decision.state);
    return {
      result: { version: decision.version, orderNumber: orderNumberOf(state) },
      appended: decision.events.length > 0,
    };
  });
}

/** Records a failed payment (or a refund due) on the order, unless the decider finds nothing to record. */
export async function recordFailure(p: Ports, orderId: string, reason: string): Promise<void> {
  await decideAndAppend(
    p.store,
    paymentStreamId(orderId),
    PAYMENT,
    (): PaymentCommand => ({ type: 'RecordPaymentFailure', data: { reason, now: p.clock() } }),
    'checkout',
  );
}

/**
 * Records that a payment taken on `orderId` is to be refunded (RefundDue), once per payment: a repeat (a
 * webhook redelivered, a verify retried) records nothing. The refund itself is issued after the commit.
 */
export async function recordRefundDue(
  p: Ports,
  orderId: string,
  input: { paymentId: string; reason: RefundReason; detail: string; customerEmail?: string | null },
): Promise<void> {
  await decideAndAppend(
    p.store,
    paymentStreamId(orderId),
    PAYMENT,
    (): PaymentCommand => ({
      type: 'RecordRefundDue',
      data: { ...input, customerEmail: input.customerEmail ?? null, now: p.clock() },
    }),
    { actor: 'checkout', maxAttempts: 10 },
  );
}
