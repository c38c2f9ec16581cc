import type { Router } from 'express';
import { createAccountsService } from '@shop/accounts';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { ServiceContext, ServiceModule } from '@shop/shared/runtime/service';
import type { TestDatabase } from '@shop/test-support/test-database';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';

/** What a checkout slice's factory returns, as far as hosting it goes. */
export interface Slice {
  router: Router;
  consumers: EventConsumer[];
}

/** The test host's url, infrastructure, HTTP client, log-in, sign-up and stop, its database and the slice. */
export interface CheckoutTestHost<S extends Slice> extends Pick<
  TestHost<readonly ServiceModule[]>,
  'url' | 'infra' | 'api' | 'login' | 'signUp' | 'stop'
> {
  db: TestDatabase;
  /** The slice as its factory built it (application service included). */
  slice: S;
}

/**
 * One checkout slice (addresses, coupons, delivery ...), hosted with the accounts service (for tokens and
 * the admin) on a fresh database, as a checkout module would be in the shop: startTestHost, Postgres-log
 * bus and in-process cache.
 */
export async function startCheckoutTestHost<S extends Slice>(
  createSlice: (ctx: ServiceContext) => S,
): Promise<CheckoutTestHost<S>> {
  let slice: S | undefined;
  const host = await startTestHost({
    service: 'checkout-test',
    waitForAdmin: true,
    modules: (ctx): ServiceModule[] => {
      slice = createSlice(ctx);
      return [createAccountsService(ctx), { name: 'checkout', router: slice.router, consumers: slice.consumers }];
    },
  });
  return { ...host, db: host.db!, slice: slice! };
}
