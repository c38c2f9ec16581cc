import { Router } from 'express';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { OrderHistoryParts } from '@shop/shared/contracts/event-history';
import { mountRoutes, type RouteSpec } from '@shop/shared/http/route-table';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { ORDERS_API_ROUTES } from './api.ts';
import { CONFIRMATION_ROUTES } from './confirmation/order-confirmation-api.ts';
import { orderHistoryPart } from './history/order-history.ts';
import { OutgoingMail, sweepOutgoingMail } from '@shop/shared/mail/outgoing-mail';
import { ORDER_MAILS_CONSUMER, orderMailReactor, recordOrderMailSent } from './mail/order-mail-reactor.ts';
import { Orders } from './orders.ts';
import { orderPlacement } from './placement/order-placement.ts';
import { ORDER_PLACEMENT_ROUTES } from './placement/order-placement-api.ts';
import { inProcessOrderPlacement } from './placement/order-placement-port.ts';
import { OrderPushHub, type OrderPushOptions } from './push/order-push-hub.ts';
import { ordersProjection } from './read-models/orders/orders-projection.ts';
import { accountsFiguresProjection } from './read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresProjection } from './read-models/dashboard/catalog-figures-projection.ts';
import { PendingShipments, SHIPMENT_PENDING_JOB, SHIPPING_CONSUMER, shippingConsumer } from './shipping/shipments.ts';
import { createShiprocketProvider } from './shipping/shiprocket-provider.ts';
import { SHIPMENT_CANCELLATION_CONSUMER, shipmentCancellation } from './shipping/shipment-cancellation.ts';
import type { ShippingProvider } from './shipping/shipping-provider.ts';
import { shippingSettings, type ShippingSettings } from './shipping/shipping-settings.ts';
import { inProcessTrackingReceiver, SHIPPING_ROUTES } from './shipping/tracking-webhook.ts';
import { TRACKING_SWEEP_EVERY_MS, TRACKING_SWEEP_JOB, TrackingSweep } from './shipping/tracking-sweep.ts';

/** Every route the order service mounts (/internal/orders/* only in its own process). */
export const ORDER_ROUTES: RouteSpec[] = [
  ...ORDERS_API_ROUTES,
  ...CONFIRMATION_ROUTES,
  ...ORDER_PLACEMENT_ROUTES,
  ...SHIPPING_ROUTES,
];
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { ordersReadModel } from './read-models/orders/orders-projection.ts';
import { accountsFiguresReadModel } from './read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresReadModel } from './read-models/dashboard/catalog-figures-projection.ts';
import { ORDER_PLACEMENT_CONSUMER } from './placement/order-placement.ts';
import { REFUND_RECORDING_CONSUMER, refundRecording } from './cancellation/refund-recording.ts';

/** The order service's projections, for replay. */
export const readModels: readonly ProjectionRegistration[] = [
  ordersReadModel,
  catalogFiguresReadModel,
  accountsFiguresReadModel,
];
/** Its process managers: not replayed (they act, appending events, rather than keep a read model). */
export const processManagers: readonly string[] = [
  ORDER_PLACEMENT_CONSUMER,
  SHIPPING_CONSUMER,
  REFUND_RECORDING_CONSUMER,
  SHIPMENT_CANCELLATION_CONSUMER,
  ORDER_MAILS_CONSUMER,
];

export { DELIVERY_STATUSES, orderStreamId, type DeliveryStatus, type OrderEvent } from './order/events.ts';
export { findOrderNumberByPayment, ORDER_PLACEMENT_CONSUMER, orderPlacement } from './placement/order-placement.ts';
export { waitForOrderOfPayment } from './placement/wait-for-order.ts';
export { inProcessOrderPlacement } from './placement/order-placement-port.ts';
export { ORDERS_PROJECTION, ordersProjection } from './read-models/orders/orders-projection.ts';
export type { OrderView } from './read-models/orders/orders-queries.ts';
export type { DashboardStats, DayRevenue } from './read-models/orders/dashboard-stats.ts';
export { ACCOUNTS_FIGURES_PROJECTION } from './read-models/dashboard/accounts-figures-projection.ts';
export { CATALOG_FIGURES_PROJECTION } from './read-models/dashboard/catalog-figures-projection.ts';
export { ORDER_CHANGES_CHANNEL } from './push/order-changes.ts';
export { orderHistoryPart } from './history/order-history.ts';
export { ORDER_MAILS_CONSUMER } from './mail/order-mail-reactor.ts';
export type { OrderPushOptions } from './push/order-push-hub.ts';
export { createShiprocketProvider } from './shipping/shiprocket-provider.ts';
export type { ShippingProvider } from './shipping/shipping-provider.ts';
export { SHIPROCKET_SANDBOX_PATH, shippingSettings, type ShippingSettings } from './shipping/shipping-settings.ts';

export interface OrderService extends ServiceModule {
  orders: Orders;
  push: OrderPushHub;
  placement: EventConsumer;
  projection: EventConsumer;
  /** Shipments to make at the provider; undefined when this process makes none (no provider). */
  shipments: PendingShipments | undefined;
  /** A cancelled order's shipment cancelled at the provider; undefined with no provider. */
  shipmentCancellation: ReturnType<typeof shipmentCancellation> | undefined;
  /** Asks the provider about shipments with no tracking news for a while (lost webhooks); undefined with no provider. */
  trackingSweep: TrackingSweep | undefined;
  shipping: ShippingSettings;
  /** The tracking webhook's handling for a sandbox in this process: same checks, no HTTP. */
  receiveTrackingWebhook: (delivery: { raw: string; apiKey: string }) => Promise<void>;
  /** The order e-mails decided and not yet sent (run() sends the due ones). */
  mails: OutgoingMail;
}

/**
 * Order service: places orders from verified payments, serves /api/orders (own orders, admin list,
 * status, seen, delete, dashboard figures) and pushes order changes over Server-Sent Events.
 */
export function createOrderService(
  ctx: ServiceContext,
  opts: {
    /**
     * The other services' parts of an order's history (the admin timeline): the catalog's and checkout's
     * ports, in-process in the all-in-one gateway, over their /internal routes when services run apart.
     */
    history: Omit<OrderHistoryParts, 'order'>;
    push?: OrderPushOptions;
    /**
     * Serve /internal/orders/* (service tokens only) for a checkout running as its own process. Off in the
     * all-in-one process, where checkout calls the placement port in-process and nothing may reach it by HTTP.
     */
    internalRoutes?: boolean;
    /**
     * Shipping: the provider shipments are made with, or the gateway's URL, where the built-in Shiprocket
     * sandbox is mounted when no SHIPROCKET_EMAIL/PASSWORD are set (SHIPROCKET_API_URL overrides it). With
     * neither, and no credentials, this process makes no shipments (it still takes tracking webhooks).
     */
    shipping?: { provider?: ShippingProvider; gatewayUrl?: string };
  },
): OrderService {
  const store = ctx.eventStore('orders');
  const orders = new Orders(store, ctx.clock);
  const push = new OrderPushHub(
    { pool: ctx.pool, pubsub: ctx.pubsub, logger: ctx.logger, clock: ctx.clock },
    opts.push,
  );
  const placement = orderPlacement(store);
  const projection = ordersProjection(ctx.pubsub);
  const { pool, tokens, clock, config, waitForProjection } = ctx;
  const history = { ...opts.history, order: orderHistoryPart(pool) };
  // Order e-mails are recorded with the events that call for them and sent after the commit (mail/).
  const mails = new OutgoingMail({
    pool,
    schema: 'orders',
    mailer: ctx.mailer,
    clock,
    logger: ctx.logger,
    onSent: recordOrderMailSent(store),
  });
  const mailSweep = sweepOutgoingMail(ctx.jobs, mails);
  const router = mountRoutes(Router(), ORDERS_API_ROUTES, {
    pool,
    tokens,
    clock,
    waitForProjection,
    orders,
    push,
    history,
  });
  mountRoutes(router, CONFIRMATION_ROUTES, { pool, config, waitForProjection, push });
  if (opts.internalRoutes) mountRoutes(router, ORDER_PLACEMENT_ROUTES, { placement: inProcessOrderPlacement(ctx) });

  // A shipment per placed order, made after its commit and retried until the provider has it.
  const shipping = shippingSettings(ctx.config, opts.shipping?.gatewayUrl ?? '');
  const provider =
    opts.shipping?.provider ??
    (opts.shipping?.gatewayUrl || !shipping.sandbox ? createShiprocketProvider(shipping) : undefined);
  const shipments = provider
    ? new PendingShipments({ pool, store, orders, provider, clock, logger: ctx.logger })
    : undefined;
  const cancellation = provider ? shipmentCancellation(ctx, { store, orders, provider }) : undefined;
  if (shipments)
    ctx.jobs.register(SHIPMENT_PENDING_JOB, async () => {
      await shipments.run();
      await cancellation?.runner.run();
    });
  // Tracking comes by webhook; the sweep asks the provider about shipments whose webhooks stopped coming.
  const trackingSweep = provider ? new TrackingSweep({ pool, orders, provider, clock, logger: ctx.logger }) : undefined;
  if (trackingSweep)
    ctx.jobs.register(TRACKING_SWEEP_JOB, async () => {
      await trackingSweep.run();
    });
  const trackingPorts = { orders, pool, webhookToken: shipping.webhookToken };
  mountRoutes(router, SHIPPING_ROUTES, trackingPorts);
  return {
    name: 'order',
    orders,
    push,
    placement,
    projection,
    shipments,
    shipmentCancellation: cancellation,
    trackingSweep,
    shipping,
    receiveTrackingWebhook: inProcessTrackingReceiver(trackingPorts, ctx.logger),
    mails,
    router,
    // The dashboard's catalog and accounts figures: this service's own read models of those events.
    consumers: [
      placement,
      refundRecording(store),
      projection,
      catalogFiguresProjection(ctx.pubsub),
      accountsFiguresProjection(ctx.pubsub),
      ...(shipments ? [shippingConsumer(shipments)] : []),
      ...(cancellation ? [cancellation.consumer] : []),
      orderMailReactor({ store, mails, config }),
    ],
    async start() {
      await push.start();
      if (shipments) {
        await ctx.jobs.repeat(SHIPMENT_PENDING_JOB, 5_000);
        shipments.kick(); // what a process that stopped left pending
      }
      if (trackingSweep) await ctx.jobs.repeat(TRACKING_SWEEP_JOB, TRACKING_SWEEP_EVERY_MS);
      cancellation?.runner.kick();
      await mailSweep.start(); // and what a process that stopped left unsent
    },
    drain: () => push.stop(),
    stop: () => push.stop(),
  };
}
