import { Router } from 'express';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { OrderHistoryParts } from '@shop/shared/contracts/event-history';
import { mountRoutes, type RouteSpec } from '@shop/shared/http/route-table';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { ORDERS_API_ROUTES } from './api.ts';
import { CONFIRMATION_ROUTES } from './confirmation/order-confirmation-api.ts';
import { orderHistoryPart } from './history/order-history.ts';
import { Orders } from './orders.ts';
import { orderPlacement } from './placement/order-placement.ts';
import { ORDER_PLACEMENT_ROUTES } from './placement/order-placement-api.ts';
import { inProcessOrderPlacement } from './placement/order-placement-port.ts';
import { OrderPushHub, type OrderPushOptions } from './push/order-push-hub.ts';
import { ordersProjection } from './read-models/orders/orders-projection.ts';
import { accountsFiguresProjection } from './read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresProjection } from './read-models/dashboard/catalog-figures-projection.ts';

/** Every route the order service mounts (/internal/orders/* only in its own process). */
export const ORDER_ROUTES: RouteSpec[] = [...ORDERS_API_ROUTES, ...CONFIRMATION_ROUTES, ...ORDER_PLACEMENT_ROUTES];
import type { ProjectionRegistration } from '@shop/shared/bus/projection-read-model';
import { ordersReadModel } from './read-models/orders/orders-projection.ts';
import { accountsFiguresReadModel } from './read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresReadModel } from './read-models/dashboard/catalog-figures-projection.ts';
import { ORDER_PLACEMENT_CONSUMER } from './placement/order-placement.ts';

/** The order service's projections, for replay. */
export const readModels: readonly ProjectionRegistration[] = [
  ordersReadModel,
  catalogFiguresReadModel,
  accountsFiguresReadModel,
];
/** Its process managers: not replayed (they act, appending events, rather than keep a read model). */
export const processManagers: readonly string[] = [ORDER_PLACEMENT_CONSUMER];

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
export type { OrderPushOptions } from './push/order-push-hub.ts';

export interface OrderService extends ServiceModule {
  orders: Orders;
  push: OrderPushHub;
  placement: EventConsumer;
  projection: EventConsumer;
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
  const router = mountRoutes(Router(), ORDERS_API_ROUTES, {
    pool,
    tokens,
    clock,
    waitForProjection,
    orders,
    push,
    history,
  });
  mountRoutes(router, CONFIRMATION_ROUTES, { pool, config, waitForProjection });
  if (opts.internalRoutes) mountRoutes(router, ORDER_PLACEMENT_ROUTES, { placement: inProcessOrderPlacement(ctx) });
  return {
    name: 'order',
    orders,
    push,
    placement,
    projection,
    router,
    // The dashboard's catalog and accounts figures: this service's own read models of those events.
    consumers: [placement, projection, catalogFiguresProjection(ctx.pubsub), accountsFiguresProjection(ctx.pubsub)],
    start: () => push.start(),
    drain: () => push.stop(),
    stop: () => push.stop(),
  };
}
