import type { InventoryPort, ReserveLine } from '@shop/shared/contracts/inventory';
import type { OrderCustomer } from '@shop/shared/contracts/payment-events';
import type { NewStreamAppender } from '@shop/shared/eventstore/new-stream-appender';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import type { Logger } from '@shop/shared/observability/logger';
import type { PaymentProvider } from '../payment-provider/provider.ts';
import type { LiveCheckouts } from '../buyer-limits/live-checkouts.ts';
import type { OrderNumberPool } from './order-numbers.ts';

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
  /**
   * Admits a checkout to the coupon before it takes stock (counted against the usage limit until `done`), or
   * throws what reserveUse would for a coupon that cannot be used now.
   */
  admitUse(input: { code: string; buyers: readonly string[] }): Promise<{ done: () => void }>;
  releaseUse(code: string, reservationId: string): Promise<void>;
  commitUse(code: string, reservationId: string): Promise<void>;
  /** Gives a cancelled order's use back if the coupon allows it. */
  returnUse(code: string, reservationId: string): Promise<void>;
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
  /** Who is buying (`user:<id>`, or `guest:<signed cookie id>`): their caps, and who owns the checkout. */
  buyerKey: string;
  /** The client's address key (`ip:<req.ip>`): the backstop cap on live checkouts from one address. */
  clientAddressKey: string;
  /** A guest whose identity this request minted: no earlier checkout of theirs to replace (isFirstVisit). */
  firstVisit?: boolean;
}

/** What the payment commands work over: the payment log, the other slices and services, the provider. */
export interface PaymentPorts {
  store: PostgresEventStore;
  /** Group commit of new payment streams (one transaction for the orders created meanwhile). */
  newStreams: NewStreamAppender;
  inventory: InventoryPort;
  coupons: CouponUses;
  delivery: DeliveryQuotes;
  provider: PaymentProvider;
  keySecret: string;
  clock: () => Date;
  /** How long an unpaid order holds stock once its payment dialog opened (RESERVATION_TTL_SECONDS). */
  reservationTtlMs: number;
  /** How long it holds stock before the dialog opens (HOLD_BEFORE_DIALOG_SECONDS, at most the above). */
  holdBeforeDialogMs: number;
  logger: Logger;
  /** Caps the unpaid checkouts one buyer holds stock with (MAX_LIVE_CHECKOUTS_PER_BUYER). */
  liveCheckouts: LiveCheckouts;
  /** The numbers recorded in PaymentVerified: the order service's, a block at a time. */
  orderNumbers: OrderNumberPool;
}
