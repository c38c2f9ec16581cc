import { Router } from 'express';
import type { EventConsumer } from '@shop/shared/bus/types';
import { mountRoutes } from '@shop/shared/http/route-table';
import type { ServiceContext } from '@shop/shared/runtime/service';
import { DELIVERY_ROUTES } from './api.ts';
import { Delivery } from './delivery.ts';
import { deliverySettingsProjection } from './read-models/delivery-settings/delivery-settings-projection.ts';

export { Delivery } from './delivery.ts';
export { calculateCharges, type DeliveryCharges } from './settings/charges.ts';
export { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './settings/events.ts';
export {
  DELIVERY_SETTINGS_PROJECTION,
  deliverySettingsProjection,
} from './read-models/delivery-settings/delivery-settings-projection.ts';

/** Delivery slice of checkout: settings (admin), charge calculation (public), and quotes for pricing orders. */
export function createDelivery(ctx: ServiceContext): {
  router: Router;
  consumers: EventConsumer[];
  delivery: Delivery;
} {
  const delivery = new Delivery(ctx.eventStore('checkout'), ctx.pool, ctx.clock, ctx.pubsub);
  return {
    router: mountRoutes(Router(), DELIVERY_ROUTES, { waitForProjection: ctx.waitForProjection, delivery }),
    consumers: [deliverySettingsProjection(delivery.settingsView)],
    delivery,
  };
}
