import { createHmac, randomUUID } from 'node:crypto';
import type { InventoryPort, ReserveLine, ReservedLine } from '@shop/shared/contracts/inventory';
import {
  paymentStreamId,
  type OrderCustomer,
  type PaymentEvent,
  type PaymentOrderCreated,
} from '@shop/shared/contracts/payment-events';
import { ForbiddenError, RefusedError, ValidationError } from '@shop/shared/errors/errors';
import { retryOnConflict } from '@shop/shared/eventstore/command';
import { StreamVersionConflictError, type PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Logger } from '@shop/shared/observability/logger';
import { ProviderOrderUnknownError, type PaymentProvider, type ProviderPayment } from '../payment-provider/provider.ts';
import { verifyPaymentSignature } from '../payment-provider/signatures.ts';
import {
  decidePayment,
  evolvePayment,
  initialPaymentState,
  mayPriceOpenedOrder,
  orderTotalPaise,
  type PaymentCommand,
  type PaymentOrderState,
} from './decider.ts';
import type { LiveCheckouts } from './live-checkouts.ts';

/** Coupon uses held with an order (the coupons slice). */
export interface CouponUses {
  reserveUse(input: {
    code: string;
    reservationId: string;
    orderTotalPaise: number;
    /** The buyer's keys: a buyer may hold one live (unpaid, unexpired) use of a coupon at a time. */
    buyers: readonly string[];
    /** When the checkout's hold lapses if unpaid. */
    heldUntil: string;
  }): Promise<{ code: string; discountPaise: number }>;
  releaseUse(code: string, reservationId: string): Promise<void>;
  commitUse(code: string, reservationId: string): Promise<void>;
}

/** Delivery charges for an order total (the delivery slice). */
export interface DeliveryQuotes {
  quote(orderTotalPaise: number): Promise<{ shippingChargePaise: number; deliveryChargePaise: number }>;
}

export interface CheckoutRequest {
  lines: ReserveLine[];
  customer: OrderCustomer;
  address: string;
  pincode: string;
  couponCode: string | null;
  receipt: string;
  /** The client's address (req.ip): who a guest is, for the caps on live checkouts and coupon holds. */
  clientAddress: string;
}

export const RECONCILE_JOB = 'checkout.reconcile';

/** The order's lines from its holds: a cart line held from several sizes' stock (one hold id) is one line. */
export function orderLinesOf(holds: ReservedLine[]) {
  const byHold = new Map<string, ReservedLine>();
  for (const h of holds) {
    const seen = byHold.get(h.holdId);
    byHold.set(h.holdId, seen ? { ...seen, quantity: seen.quantity + h.quantity } : h);
  }
  return [...byHold.values()].map((l) => ({
    productId: l.productId,
    name: l.name,
    image: l.image,
    size: l.size,
    color: l.color,
    quantity: l.quantity,
    unitPricePaise: l.unitPricePaise,
    lineTotalPaise: l.unitPricePaise * l.quantity,
  }));
}

/** An order priced from the server's own data, with the stock and coupon holds taken for it. */
type HeldOrder = Omit<
  PaymentOrderCreated['data'],
  'razorpayOrderId' | 'receipt' | 'currency' | 'createdAt' | 'expiresAt'
>;

/**
 * The purchase saga's front half: prices an order from the server's own prices, coupon and delivery
 * settings, holds stock and the coupon use, creates the provider order, and records the payment once.
 */
export class Payments {
  constructor(
    private readonly deps: {
      store: PostgresEventStore;
      inventory: InventoryPort;
      coupons: CouponUses;
      delivery: DeliveryQuotes;
      provider: PaymentProvider;
      keySecret: string;
      clock: () => Date;
      reservationTtlMs: number;
      logger: Logger;
      /** Caps the unpaid checkouts one buyer holds stock with (MAX_LIVE_CHECKOUTS_PER_BUYER). */
      liveCheckouts: LiveCheckouts;
    },
  ) {}

  get keyId(): string {
    return this.deps.provider.keyId;
  }

  /**
   * Takes one of the buyer's live-checkout places (429 when they have too many unpaid checkouts open), then
   * reserves and prices the order and creates the provider order. Everything is undone on failure.
   */
  async createOrder(req: CheckoutRequest) {
    const reservationId = randomUUID();
    const now = this.deps.clock();
    // The place normally goes when the order is paid or expires; this is a backstop for a crash in between.
    const backstop = new Date(now.getTime() + 2 * this.deps.reservationTtlMs + 60_000);
    await this.deps.liveCheckouts.take(this.buyerOf(req).key, reservationId, now, backstop);
    try {
      return await this.holdAndCreate(req, reservationId);
    } catch (err) {
      await this.deps.liveCheckouts
        .release(reservationId)
        .catch((e: unknown) =>
          this.deps.logger.error({ err: e, reservationId }, 'could not give back a checkout place'),
        );
      throw err;
    }
  }

  /** Reserves and prices the order, then creates the provider order. All holds are undone on failure. */
  private async holdAndCreate(req: CheckoutRequest, reservationId: string) {
    const held = await this.holdAndPrice(req, reservationId);
    try {
      const providerOrder = await this.deps.provider.createOrder({
        amountPaise: held.totalPaise,
        currency: 'INR',
        receipt: req.receipt.slice(0, 40),
        notes: { reservationId: held.reservationId },
      });
      const now = this.deps.clock();
      const command: PaymentCommand = {
        type: 'CreatePaymentOrder',
        data: {
          ...held,
          razorpayOrderId: providerOrder.id,
          receipt: req.receipt,
          currency: 'INR',
          createdAt: now.toISOString(),
          expiresAt: this.expiry(now),
        },
      };
      await this.deps.store.append(
        paymentStreamId(providerOrder.id),
        'no_stream',
        decidePayment(command, initialPaymentState()),
        {
          metadata: { actor: req.customer.userId ?? 'guest', correlationId: held.reservationId },
        },
      );
      // No job per order: the expiry sweep (RECONCILE_JOB) settles every order whose hold has run out.
      return {
        id: providerOrder.id,
        amount: held.totalPaise,
        currency: 'INR' as const,
        receipt: req.receipt,
        key_id: this.deps.provider.keyId,
      };
    } catch (err) {
      await this.releaseHolds(held);
      throw err;
    }
  }

  /**
   * The seeds' original flow: a provider order for the client's amount with no cart; the cart comes with
   * verify, where the server prices it (verifyWithCart).
   */
  async openOrder(input: { amountPaise: number; receipt: string; userId: string | null }) {
    const providerOrder = await this.deps.provider.createOrder({
      amountPaise: input.amountPaise,
      currency: 'INR',
      receipt: input.receipt.slice(0, 40),
    });
    const now = this.deps.clock();
    const command: PaymentCommand = {
      type: 'OpenPaymentOrder',
      data: {
        razorpayOrderId: providerOrder.id,
        amountPaise: input.amountPaise,
        receipt: input.receipt,
        currency: 'INR',
        userId: input.userId,
        createdAt: now.toISOString(),
        expiresAt: this.expiry(now),
      },
    };
    await this.deps.store.append(
      paymentStreamId(providerOrder.id),
      'no_stream',
      decidePayment(command, initialPaymentState()),
      {
        metadata: { actor: input.userId ?? 'guest' },
      },
    );
    return {
      id: providerOrder.id,
      amount: input.amountPaise,
      currency: 'INR' as const,
      receipt: input.receipt,
      key_id: this.deps.provider.keyId,
    };
  }

  /** Checks the browser's signature against the stored provider order, then records the payment once. */
  async verify(
    input: { orderId: string; paymentId: string; signature: string },
    cart?: CheckoutRequest,
  ): Promise<{ version: number }> {
    const { state } = await this.load(input.orderId);
    const genuine =
      state.status !== 'none' &&
      verifyPaymentSignature({
        orderId: input.orderId,
        paymentId: input.paymentId,
        signature: input.signature,
        secret: this.deps.keySecret,
      });
    if (!genuine) throw new ValidationError('Payment verification failed');
    if (state.status !== 'open') return this.recordPaid(input.orderId, input.paymentId, 'checkout');
    if (!cart) throw new ValidationError('orderData is required to place this order');
    // An order opened by an account is that account's: no one else attaches a cart (and a customer) to it.
    if (!mayPriceOpenedOrder(state.opened, cart.customer.userId)) {
      this.deps.logger.warn(
        { orderId: input.orderId, openedBy: state.opened.userId, attemptedBy: cart.customer.userId ?? 'guest' },
        'refused a cart for an opened order from someone other than its opener',
      );
      throw new ForbiddenError('Payment verification failed');
    }
    return this.priceAtVerify(input.orderId, input.paymentId, cart, state.opened.amountPaise);
  }

  /** An opened order's cart, priced now: accepted only when the server's total is what was charged. */
  private async priceAtVerify(
    orderId: string,
    paymentId: string,
    cart: CheckoutRequest,
    chargedPaise: number,
  ): Promise<{ version: number }> {
    let held: HeldOrder & { reservationId: string };
    try {
      held = await this.holdAndPrice(cart);
    } catch (err) {
      await this.recordFailure(orderId, `refund due: ${(err as Error).message}`);
      throw err;
    }
    if (held.totalPaise !== chargedPaise) {
      await this.releaseHolds(held);
      await this.recordFailure(orderId, `refund due: charged ${chargedPaise} paise, order totals ${held.totalPaise}`);
      throw new ValidationError('Payment amount does not match the order total; the payment will be refunded');
    }
    const now = this.deps.clock();
    // Holding stock took a while: decide and append on the stream as it is now.
    const { state: opened, version } = await this.load(orderId);
    if (opened.status !== 'open') {
      await this.releaseHolds(held);
      return this.recordPaid(orderId, paymentId, 'checkout');
    }
    const created = decidePayment(
      {
        type: 'CreatePaymentOrder',
        data: {
          ...held,
          razorpayOrderId: orderId,
          receipt: opened.opened.receipt,
          currency: 'INR',
          createdAt: opened.opened.createdAt,
          expiresAt: opened.opened.expiresAt,
        },
      },
      opened,
    );
    const verified = decidePayment(
      { type: 'VerifyPayment', data: { paymentId, via: 'checkout', now } },
      created.reduce(evolvePayment, opened),
    );
    try {
      const r = await this.deps.store.append(paymentStreamId(orderId), version, [...created, ...verified], {
        metadata: { actor: 'checkout' },
      });
      return { version: r.nextExpectedVersion };
    } catch (err) {
      await this.releaseHolds(held);
      // A concurrent verify priced it first: answer as that one did.
      if (err instanceof StreamVersionConflictError) return this.recordPaid(orderId, paymentId, 'checkout');
      throw err;
    }
  }

  /** Records PaymentVerified unless already recorded (any path: browser, webhook, reconciliation). */
  async recordPaid(
    orderId: string,
    paymentId: string,
    via: 'checkout' | 'webhook' | 'reconciliation',
  ): Promise<{ version: number }> {
    return retryOnConflict(async () => {
      const { state, version } = await this.load(orderId);
      const events = decidePayment({ type: 'VerifyPayment', data: { paymentId, via, now: this.deps.clock() } }, state);
      if (events.length === 0) return { version };
      const r = await this.deps.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: via } });
      return { version: r.nextExpectedVersion };
    }, 10);
  }

  async recordFailure(orderId: string, reason: string): Promise<void> {
    await retryOnConflict(async () => {
      const { state, version } = await this.load(orderId);
      const events = decidePayment({ type: 'RecordPaymentFailure', data: { reason, now: this.deps.clock() } }, state);
      if (events.length)
        await this.deps.store.append(paymentStreamId(orderId), version, events, { metadata: { actor: 'checkout' } });
    });
  }

  /**
   * Settles an unpaid order whose hold ran out: if the provider took the money after all (closed browser,
   * lost webhook) it is recorded as paid, else the order expires and its holds are released. An order the
   * provider has no record of cannot be paid: it expires too ('expired-unknown'), once, never retried.
   */
  async settleExpired(orderId: string): Promise<'paid' | 'expired' | 'expired-unknown' | 'unchanged'> {
    const { state } = await this.load(orderId);
    if (state.status !== 'created' && state.status !== 'open') return 'unchanged';
    let unknownToProvider = false;
    if (state.status === 'created') {
      let payments: ProviderPayment[] = [];
      try {
        payments = await this.deps.provider.fetchPayments(orderId);
      } catch (err) {
        if (!(err instanceof ProviderOrderUnknownError)) throw err;
        unknownToProvider = true;
      }
      const paid = payments.find((p) => p.status === 'captured' || p.status === 'authorized');
      if (paid) {
        await this.recordPaid(orderId, paid.id, 'reconciliation');
        return 'paid';
      }
    }
    const expired = await retryOnConflict(async () => {
      const current = await this.load(orderId);
      const events = decidePayment({ type: 'ExpirePaymentOrder', data: { now: this.deps.clock() } }, current.state);
      if (!events.length) return 'unchanged' as const;
      await this.deps.store.append(paymentStreamId(orderId), current.version, events, {
        metadata: { actor: 'expiry' },
      });
      return 'expired' as const;
    });
    return expired === 'expired' && unknownToProvider ? 'expired-unknown' : expired;
  }

  async load(orderId: string): Promise<{ state: PaymentOrderState; version: number }> {
    return this.deps.store.aggregate<PaymentOrderState, PaymentEvent>(
      paymentStreamId(orderId),
      evolvePayment,
      initialPaymentState(),
    );
  }

  /**
   * Who is buying, as keys the caller cannot choose: the account, else the client address. A guest's
   * e-mail (chosen by the caller) is an extra key for the one-coupon-hold rule only. Guest values are kept
   * as keyed hashes, so the event log holds no addresses.
   */
  private buyerOf(req: CheckoutRequest): { key: string; couponKeys: string[] } {
    if (req.customer.userId) {
      const key = `user:${req.customer.userId}`;
      return { key, couponKeys: [key] };
    }
    const tag = (value: string) =>
      createHmac('sha256', this.deps.keySecret).update(`buyer|${value}`).digest('base64url').slice(0, 22);
    const key = `ip:${tag(req.clientAddress)}`;
    return { key, couponKeys: [key, `email:${tag(req.customer.email.trim().toLowerCase())}`] };
  }

  private expiry(now: Date): string {
    return new Date(now.getTime() + this.deps.reservationTtlMs).toISOString();
  }

  /** Holds stock and the coupon use and prices the order from the server's data; undoes the holds on failure. */
  private async holdAndPrice(
    req: CheckoutRequest,
    reservationId: string = randomUUID(),
  ): Promise<HeldOrder & { reservationId: string }> {
    const { inventory, coupons, delivery } = this.deps;
    const held = await inventory.reserve(reservationId, req.lines);
    if (!held.ok) throw new RefusedError(held.title, held.message);
    let couponCode: string | null = null;
    try {
      const lines = orderLinesOf(held.lines);
      const subtotalPaise = lines.reduce((sum, l) => sum + l.lineTotalPaise, 0);
      let discountPaise = 0;
      if (req.couponCode) {
        const use = await coupons.reserveUse({
          code: req.couponCode,
          reservationId,
          orderTotalPaise: subtotalPaise,
          buyers: this.buyerOf(req).couponKeys,
          heldUntil: this.expiry(this.deps.clock()),
        });
        couponCode = use.code;
        discountPaise = use.discountPaise;
      }
      // Checkout quotes delivery on the subtotal after discount (seed 000 section 7).
      const charges = await delivery.quote(Math.max(0, subtotalPaise - discountPaise));
      const priced = {
        subtotalPaise,
        discountPaise,
        shippingChargePaise: charges.shippingChargePaise,
        deliveryChargePaise: charges.deliveryChargePaise,
      };
      const totalPaise = orderTotalPaise(priced);
      if (totalPaise < 100) throw new ValidationError('Order total must be at least ₹1.00');
      return {
        reservationId,
        holds: held.lines,
        customer: req.customer,
        address: req.address,
        pincode: req.pincode,
        lines,
        couponCode,
        ...priced,
        totalPaise,
      };
    } catch (err) {
      await this.releaseHolds({ reservationId, holds: held.lines, couponCode });
      throw err;
    }
  }

  private async releaseHolds(h: {
    reservationId: string;
    holds: ReservedLine[];
    couponCode: string | null;
  }): Promise<void> {
    await this.deps.inventory
      .release(h.reservationId, h.holds)
      .catch((e: unknown) =>
        this.deps.logger.error({ err: e, reservationId: h.reservationId }, 'could not release stock holds'),
      );
    if (h.couponCode) {
      await this.deps.coupons
        .releaseUse(h.couponCode, h.reservationId)
        .catch((e: unknown) =>
          this.deps.logger.error({ err: e, reservationId: h.reservationId }, 'could not release coupon use'),
        );
    }
  }
}
