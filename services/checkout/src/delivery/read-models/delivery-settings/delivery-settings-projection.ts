import { defineReadModel, readModelConsumer } from '@shop/shared/bus/projection-read-model';
import { table } from '@shop/shared/bus/projection-rows';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { ProjectedViewCache } from '@shop/shared/cache/projected-view';
import type { DeliverySettingsEvent } from '../../settings/events.ts';

export const DELIVERY_SETTINGS_PROJECTION = 'checkout.delivery_settings';

/** The key of the settings row in the in-memory copy checkout prices orders with. */
export const DELIVERY_SETTINGS_KEY = 'settings';

const tables = {
  settings: table('checkout.delivery_settings', {
    key: ['singleton'],
    columns: [
      'singleton',
      'is_enabled',
      'free_shipping_threshold_paise',
      'shipping_charge_paise',
      'free_delivery_threshold_paise',
      'delivery_charge_paise',
      'description',
      'updated_at',
    ],
  }),
};

/** checkout.delivery_settings: the one row of settings in force (absent = defaults). */
export const deliverySettingsReadModel = defineReadModel<DeliverySettingsEvent, typeof tables, true>({
  name: DELIVERY_SETTINGS_PROJECTION,
  schema: 'checkout',
  sources: ['checkout'],
  tables,
  evolve: {
    DeliverySettingsChanged(d, { settings }) {
      settings.put({
        singleton: true,
        is_enabled: d.isEnabled,
        free_shipping_threshold_paise: d.freeShippingThresholdPaise,
        shipping_charge_paise: d.shippingChargePaise,
        free_delivery_threshold_paise: d.freeDeliveryThresholdPaise,
        delivery_charge_paise: d.deliveryChargePaise,
        description: d.description,
        updated_at: d.changedAt,
      });
      return true;
    },
  },
});

/**
 * The delivery settings' live consumer: after each commit that changed them (and after a replay) the
 * in-memory copy (`view`) is dropped in every process.
 */
export const deliverySettingsProjection = (view?: ProjectedViewCache<unknown>): EventConsumer<true> =>
  readModelConsumer(deliverySettingsReadModel, async () => {
    await view?.changed([DELIVERY_SETTINGS_KEY]);
  });
