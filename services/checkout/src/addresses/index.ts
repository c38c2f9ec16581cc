import { Router } from 'express';
import type { EventConsumer } from '@shop/shared/bus/types';
import { mountRoutes } from '@shop/shared/http/route-table';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { Addresses } from './addresses.ts';
import { ADDRESS_ROUTES } from './api.ts';
import { addressesProjection } from './read-models/addresses/addresses-projection.ts';

export { Addresses } from './addresses.ts';
export type { AddressFields } from './address-book/events.ts';
export { ADDRESSES_PROJECTION, addressesProjection } from './read-models/addresses/addresses-projection.ts';

/** Saved-addresses slice of checkout: the logged-in user's address book. */
export function createAddresses(ctx: ServiceContext): {
  router: Router;
  consumers: EventConsumer[];
  addresses: Addresses;
} {
  const addresses = new Addresses(ctx.eventStore('checkout'), ctx.clock);
  return {
    router: mountRoutes(Router(), ADDRESS_ROUTES, {
      pool: ctx.pool,
      waitForProjection: ctx.waitForProjection,
      addresses,
    }),
    consumers: [addressesProjection],
    addresses,
  };
}
