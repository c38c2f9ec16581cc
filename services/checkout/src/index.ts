import type { Config } from '@shop/shared/config/config';
import { Router } from 'express';
import type { CheckoutHistoryPort } from '@shop/shared/contracts/event-history';
import type { InventoryPort, ReserveLine } from '@shop/shared/contracts/inventory';
import { orderConfirmationTokens } from '@shop/shared/contracts/order-confirmation';
import type { OrderPlacementPort } from '@shop/shared/contracts/order-placement';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { sweepEveryMs } from '@shop/shared/jobs/sweep-interval';
import { mountRoutes, type RouteSpec } from '@shop/shared/http/route-table';
import { ADDRESS_ROUTES } from './addresses/api.ts';
import { COUPON_ROUTES } from './coupons/api.ts';
import { DELIVERY_ROUTES } from './delivery/api.ts';
import { createAddresses } from './addresses/index.ts';
import { createCoupons } from './coupons/index.ts';
import { createDelivery } from './delivery/index.ts';
import { checkoutHistory } from './history/checkout-history.ts';
import { CHECKOUT_HISTORY_ROUTES } from './history/history-api.ts';
import { createRazorpayProvider } from './payment-provider/razorpay-provider.ts';
import type { PaymentProvider } from './payment-provider/provider.ts';
import { inProcessWebhookReceiver, type WebhookAnswer } from './payment-provider/in-process-webhooks.ts';
import type { WebhookDelivery } from '@shop/razorpay-sandbox';
import { PAYMENT_ROUTES, paymentLimitTerms, stockDecidedLines, type PaymentPorts } from './payment/api.ts';
import { sweepExpiredOrders } from './settlement/expiry-sweep.ts';
import { paymentOrdersProjection } from './payment/read-models/payment-orders-projection.ts';
import { LiveCheckouts } from './buyer-limits/live-checkouts.ts';
import { Payments, RECONCILE_JOB } from './payment/payments.ts';
import { OrderNumberPool } from './payment/order-numbers.ts';
import { NewStreamAppender } from '@shop/shared/eventstore/new-stream-appender';
import { paymentSettings, type PaymentSettings } from './payment/provider-settings.ts';
import { PendingSettlements, SETTLE_PENDING_JOB, settlementConsumer } from './settlement/settlement-consumer.ts';
import { ORPHAN_CHECKOUTS_JOB, releaseOrphanCheckouts } from './settlement/orphan-checkouts.ts';
import { PendingRefunds, REFUND_PENDING_JOB, refundingConsumer } from './refunds/refunds.ts';
import { refundsProjection } from './refunds/read-models/refunds-projection.ts';
import { CANCELLATION_CONSUMER, cancellationConsumer } from './cancellation/cancellation-consumer.ts';

/** Every route the checkout service mounts. */
export const CHECKOUT_ROUTES: RouteSpec[] = [
  ...DELIVERY_ROUTES,
  ...COUPON_ROUTES,
  ...ADDRESS_ROUTES,
  ...PAYMENT_ROUTES,
  ...CHECKOUT_HISTORY_ROUTES,
];
export { checkoutHistory } from './history/checkout-history.ts';
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { paymentOrdersReadModel } from './payment/read-models/payment-orders-projection.ts';
import { couponsReadModel } from './coupons/read-models/coupons/coupons-projection.ts';
import { deliverySettingsReadModel } from './delivery/read-models/delivery-settings/delivery-settings-projection.ts';
import { addressesReadModel } from './addresses/read-models/addresses/addresses-projection.ts';
import { refundsReadModel } from './refunds/read-models/refunds-projection.ts';
import { SETTLEMENT_CONSUMER } from './settlement/settlement-consumer.ts';
import { REFUNDING_CONSUMER } from './refunds/refunds.ts';

/** The checkout service's projections, for replay. */
export const readModels: readonly ProjectionRegistration[] = [
  deliverySettingsReadModel,
  couponsReadModel,
  addressesReadModel,
  paymentOrdersReadModel,
  refundsReadModel,
];
/** Its process managers: not replayed (they act, settling payments and refunds, rather than keep a read model). */
export const processManagers: readonly string[] = [SETTLEMENT_CONSUMER, REFUNDING_CONSUMER, CANCELLATION_CONSUMER];

export { paymentSettings, SANDBOX_PATH, type PaymentSettings } from './payment/provider-settings.ts';
export { createInProcessSandboxProvider } from './payment-provider/sandbox-provider.ts';
export { WebhookNotTakenError } from './payment-provider/in-process-webhooks.ts';
export type { CouponEvent } from './coupons/coupon/events.ts';

/** POST /api/payment/create-order's rules, for an answer given before the framework (same rules, same order). */
export interface CreateOrderRules {
  /** See stockDecidedLines: the lines whose stock alone decides the answer, else null. */
  stockDecidedLines(body: unknown): ReserveLine[] | null;
  /** The route's rate limits, in the order it counts them. */
  limitTerms: ReturnType<typeof paymentLimitTerms>;
}

/** Checkout's cart and payment limits, from the config (MAX_UNITS_PER_PRODUCT and the rest). */
function checkoutLimits(config: Config): PaymentPorts['limits'] {
  return {
    maxUnitsPerProduct: config.MAX_UNITS_PER_PRODUCT,
    maxUnitsPerCheckout: config.MAX_UNITS_PER_CHECKOUT,
    maxProductsPerCheckout: config.MAX_PRODUCTS_PER_CHECKOUT,
    paymentCallsPerAddressPerMinute: config.PAYMENT_CALLS_PER_ADDRESS_PER_MINUTE,
  };
}

/**
 * The create-order rules of a checkout with this config: what the checkout service answers with, and what
 * the distributed gateway answers a sold-out create-order with before forwarding it (the same config).
 */
export function createOrderRules(config: Config): CreateOrderRules {
  const limits = checkoutLimits(config);
  return {
    stockDecidedLines: (body: unknown) => stockDecidedLines(limits, body),
    limitTerms: paymentLimitTerms(limits),
  };
}

export interface CheckoutOptions {
  /** The catalog's inventory: in-process, or the catalog service over HTTP. */
  inventory: InventoryPort;
  /** Where the gateway answers (the sandbox's default home). */
  gatewayUrl: string;
  /**
   * Read-your-writes for verify: the order number once the buyer's orders list shows it. The order
   * service's port: in-process, or the order service over HTTP; checkout never reads the orders schema.
   */
  waitForOrder: OrderPlacementPort['orderOfPayment'];
  /** Fresh order numbers from the order service (its port), recorded in PaymentVerified. */
  allocateOrderNumbers: OrderPlacementPort['allocateOrderNumbers'];
  /** Tests may pass their own provider; the shop that hosts the sandbox passes the in-process one. */
  provider?: PaymentProvider;
  /**
   * Serve /internal/checkout/* (service tokens only): a payment's part of an order's history, for the order
   * service running as its own process. Off in the all-in-one process, where that part is read in-process.
   */
  internalRoutes?: boolean;
}

/** Checkout service: delivery charges, coupons, saved addresses, and the payment saga's front half. */
export function createCheckoutService(
  ctx: ServiceContext,
  opts: CheckoutOptions,
): ServiceModule & {
  payments: Payments;
  settings: PaymentSettings;
  history: CheckoutHistoryPort;
  /** The webhook route's handling for a provider in this process (the sandbox): same checks, no HTTP. */
  receiveWebhook: (delivery: WebhookDelivery) => Promise<WebhookAnswer>;
  /** What a refusal before the framework needs of POST /api/payment/create-order (gateway raw-create-order). */
  createOrder: CreateOrderRules;
} {
  const settings = paymentSettings(ctx.config, opts.gatewayUrl);
  const store = ctx.eventStore('checkout');
  const delivery = createDelivery(ctx);
  const coupons = createCoupons(ctx);
  const addresses = createAddresses(ctx);
  const provider =
    opts.provider ??
    createRazorpayProvider({ keyId: settings.keyId, keySecret: settings.keySecret, apiUrl: settings.apiUrl });
  const liveCheckouts = new LiveCheckouts(
    ctx.pool,
    ctx.config.MAX_LIVE_CHECKOUTS_PER_BUYER,
    ctx.config.MAX_LIVE_CHECKOUTS_PER_ADDRESS,
  );
  const payments = new Payments({
    store,
    newStreams: new NewStreamAppender(store),
    inventory: opts.inventory,
    coupons: coupons.coupons,
    delivery: delivery.delivery,
    provider,
    keySecret: settings.keySecret,
    clock: ctx.clock,
    reservationTtlMs: ctx.config.RESERVATION_TTL_SECONDS * 1000,
    holdBeforeDialogMs: ctx.config.HOLD_BEFORE_DIALOG_SECONDS * 1000,
    logger: ctx.logger,
    liveCheckouts,
    orderNumbers: new OrderNumberPool(opts.allocateOrderNumbers, ctx.logger),
  });

  const limits = checkoutLimits(ctx.config);
  const confirmationTokens = orderConfirmationTokens(ctx.config.JWT_SECRET);
  const router = Router();
  router.use(delivery.router, coupons.router, addresses.router);
  const paymentPorts: PaymentPorts = {
    payments,
    pool: ctx.pool,
    webhookSecret: settings.webhookSecret,
    logger: ctx.logger,
    limits,
    waitForOrder: (razorpayOrderId, version) =>
      opts.waitForOrder({
        razorpayOrderId,
        paymentStreamId: paymentStreamId(razorpayOrderId),
        paymentStreamVersion: version,
      }),
    orderToken: (razorpayOrderId) => confirmationTokens.sign(razorpayOrderId),
  };
  mountRoutes(router, PAYMENT_ROUTES, paymentPorts);
  const receiveWebhook = inProcessWebhookReceiver(paymentPorts, ctx.logger);

  const history = checkoutHistory(ctx.pool);
  if (opts.internalRoutes) mountRoutes(router, CHECKOUT_HISTORY_ROUTES, { history });

  const settlements = new PendingSettlements({
    pool: ctx.pool,
    inventory: opts.inventory,
    coupons: coupons.coupons,
    logger: ctx.logger,
    clock: ctx.clock,
  });
  ctx.jobs.register(SETTLE_PENDING_JOB, async () => {
    await settlements.run();
  });

  // Refunds due are issued after their commit, retried until the provider has taken them (refunds/refunds.ts).
  const refunds = new PendingRefunds({ pool: ctx.pool, store, provider, clock: ctx.clock, logger: ctx.logger });
  ctx.jobs.register(REFUND_PENDING_JOB, async () => {
    await refunds.run();
  });

  ctx.jobs.register(ORPHAN_CHECKOUTS_JOB, async () => {
    await releaseOrphanCheckouts({
      pool: ctx.pool,
      clock: ctx.clock,
      logger: ctx.logger,
      releaseCouponUses: (reservationId) => coupons.coupons.releaseUsesOf(reservationId),
    });
  });

  ctx.jobs.register(RECONCILE_JOB, async () => {
    await sweepExpiredOrders({ pool: ctx.pool, payments, clock: ctx.clock, logger: ctx.logger });
  });

  return {
    name: 'checkout',
    payments,
    settings,
    history,
    receiveWebhook,
    createOrder: createOrderRules(ctx.config),
    router,
    consumers: [
      ...delivery.consumers,
      ...coupons.consumers,
      ...addresses.consumers,
      paymentOrdersProjection,
      refundsProjection,
      refundingConsumer(refunds),
      cancellationConsumer({ store, settlements }),
      settlementConsumer({
        settlements,
        liveCheckouts,
        loadOrder: async (orderId) => {
          const { state } = await payments.load(orderId);
          return 'order' in state ? state.order : null;
        },
      }),
    ],
    async start() {
      await delivery.delivery.settingsView.start();
      // The shorter hold (before the payment dialog opens) sets how often unpaid orders are looked at.
      await ctx.jobs.repeat(
        RECONCILE_JOB,
        sweepEveryMs(Math.min(ctx.config.RESERVATION_TTL_SECONDS, ctx.config.HOLD_BEFORE_DIALOG_SECONDS)),
      );
      await ctx.jobs.repeat(SETTLE_PENDING_JOB, 5_000);
      await ctx.jobs.repeat(REFUND_PENDING_JOB, 5_000);
      await ctx.jobs.repeat(ORPHAN_CHECKOUTS_JOB, sweepEveryMs(ctx.config.RESERVATION_TTL_SECONDS));
      settlements.kick(); // what a process that stopped left pending
      refunds.kick();
    },
    async stop() {
      await delivery.delivery.settingsView.stop();
    },
  };
}
