import { defineProjection } from '@shop/shared/bus/projection';
import type { EventConsumer } from '@shop/shared/bus/types';
import type { ProjectedViewCache } from '@shop/shared/cache/projected-view';
import type { DeliverySettingsEvent } from '../../settings/events.ts';

export const DELIVERY_SETTINGS_PROJECTION = 'checkout.delivery_settings';

/** The key of the settings row in the in-memory copy checkout prices orders with. */
export const DELIVERY_SETTINGS_KEY = 'settings';

/**
 * checkout.delivery_settings: the one row of settings in force (absent = defaults). After each commit that
 * changed it (and after a replay) the in-memory copy (`view`) is dropped in every process.
 */
export const deliverySettingsProjection = (view?: ProjectedViewCache<unknown>): EventConsumer<true> =>
  defineProjection<DeliverySettingsEvent, true>({
    name: DELIVERY_SETTINGS_PROJECTION,
    schema: 'checkout',
    sources: ['checkout'],
    on: {
      async DeliverySettingsChanged(d, tx) {
        await tx.query(
          `INSERT INTO checkout.delivery_settings (singleton, is_enabled, free_shipping_threshold_paise, shipping_charge_paise,
             free_delivery_threshold_paise, delivery_charge_paise, description, updated_at)
           VALUES (true, $1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (singleton) DO UPDATE SET is_enabled = EXCLUDED.is_enabled,
             free_shipping_threshold_paise = EXCLUDED.free_shipping_threshold_paise,
             shipping_charge_paise = EXCLUDED.shipping_charge_paise,
             free_delivery_threshold_paise = EXCLUDED.free_delivery_threshold_paise,
             delivery_charge_paise = EXCLUDED.delivery_charge_paise,
             description = EXCLUDED.description, updated_at = EXCLUDED.updated_at`,
          [
            d.isEnabled,
            d.freeShippingThresholdPaise,
            d.shippingChargePaise,
            d.freeDeliveryThresholdPaise,
            d.deliveryChargePaise,
            d.description,
            d.changedAt,
          ],
        );
        return true;
      },
    },
    async afterCommit() {
      await view?.changed([DELIVERY_SETTINGS_KEY]);
    },
  });
