import type { EventConsumer } from '@shop/shared/bus/types';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import { ordersRouter } from './api.ts';
import { orderConfirmationRouter } from './confirmation/order-confirmation-api.ts';
import { Orders } from './orders.ts';
import { orderPlacement } from './placement/order-placement.ts';
import { orderPlacementRouter } from './placement/order-placement-api.ts';
import { inProcessOrderPlacement } from './placement/order-placement-port.ts';
import { OrderPushHub, type OrderPushOptions } from './push/order-push-hub.ts';
import { ordersProjection } from './read-models/orders/orders-projection.ts';
import { accountsFiguresProjection } from './read-models/dashboard/accounts-figures-projection.ts';
import { catalogFiguresProjection } from './read-models/dashboard/catalog-figures-projection.ts';

export { ORDER_ROUTES } from './routes.ts';
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
    push?: OrderPushOptions;
    /**
     * Serve /internal/orders/* (service tokens only) for a checkout running as its own process. Off in the
     * all-in-one process, where checkout calls the placement port in-process and nothing may reach it by HTTP.
     */
    internalRoutes?: boolean;
  } = {},
): OrderService {
  const store = ctx.eventStore('orders');
  const orders = new Orders(store, ctx.clock);
  const push = new OrderPushHub(
    { pool: ctx.pool, pubsub: ctx.pubsub, logger: ctx.logger, clock: ctx.clock },
    opts.push,
  );
  const placement = orderPlacement(store);
  const projection = ordersProjection(ctx.pubsub);
  const router = ordersRouter(ctx, { orders, push });
  router.use(orderConfirmationRouter(ctx));
  if (opts.internalRoutes) router.use(orderPlacementRouter(inProcessOrderPlacement(ctx)));
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
