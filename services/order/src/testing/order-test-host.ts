import { createAccountsService } from '@shop/accounts';
import { catalogHistory } from '@shop/catalog';
import { checkoutHistory } from '@shop/checkout';
import type { ServiceModule } from '@shop/shared/runtime/service';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { createOrderService, type OrderService } from '../index.ts';
import type { OrderPushOptions } from '../push/order-push-hub.ts';
import type { ShippingProvider } from '../shipping/shipping-provider.ts';

/** The test host's url, context, infrastructure, HTTP client and log-in, with the order service it hosts. */
export interface OrderTestHost extends Pick<
  TestHost<readonly ServiceModule[]>,
  'url' | 'ctx' | 'infra' | 'api' | 'login'
> {
  order: OrderService;
  /** Registers a shopper and returns their id and token (the host's signUp). */
  register: TestHost<readonly ServiceModule[]>['signUp'];
  close(): Promise<void>;
}

/**
 * One "process" hosting the order and accounts services over HTTP on `databaseUrl` (startTestHost). With
 * `redis`, pub/sub goes through Redis under a prefix of the test's own, so hosts given the same prefix fan
 * out to each other as separate processes do.
 */
export async function startOrderTestHost(opts: {
  databaseUrl: string;
  redis?: { url: string; prefix: string };
  push?: OrderPushOptions;
  /** false: run no consumers here (as a process whose Kafka partitions went to another), only HTTP and push. */
  consumers?: boolean;
  /** The services' clock (the real one unless given), e.g. to put "today" where a test needs it. */
  clock?: () => Date;
  /** Serve /internal/orders/* as the order service's own process does. */
  internalRoutes?: boolean;
  /** The shipping provider shipments are made with (none: no shipments are made). */
  shipping?: ShippingProvider;
}): Promise<OrderTestHost> {
  const host = await startTestHost({
    service: 'order',
    databaseUrl: opts.databaseUrl,
    redisPubSub: opts.redis,
    clock: opts.clock,
    consumers: opts.consumers,
    waitForAdmin: true,
    modules: (ctx) =>
      [
        createAccountsService(ctx),
        createOrderService(ctx, {
          push: opts.push,
          internalRoutes: opts.internalRoutes,
          ...(opts.shipping ? { shipping: { provider: opts.shipping } } : {}),
          history: { catalog: catalogHistory(ctx.pool), checkout: checkoutHistory(ctx.pool) },
        }),
      ] as const,
  });
  return {
    url: host.url,
    ctx: host.ctx,
    infra: host.infra,
    order: host.modules[1],
    api: host.api,
    login: host.login,
    register: host.signUp,
    close: host.stop,
  };
}
