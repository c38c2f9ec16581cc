/** Events of the `delivery-settings` stream (one for the whole shop). Money is in paise. */
export interface DeliverySettings {
  isEnabled: boolean;
  /** Shipping is free for orders at or above this total. */
  freeShippingThresholdPaise: number;
  shippingChargePaise: number;
  /** Delivery is free for orders at or above this total. */
  freeDeliveryThresholdPaise: number;
  deliveryChargePaise: number;
  description: string;
}

/** Carries the whole settings after the change, so any one event tells what was in force from then on. */
export type DeliverySettingsChanged = {
  type: 'DeliverySettingsChanged';
  data: DeliverySettings & { changedAt: string };
};
export type DeliverySettingsEvent = DeliverySettingsChanged;

export const DELIVERY_SETTINGS_STREAM = 'delivery-settings';

/** In force until an admin saves settings (seed 001, section 9). */
export const DEFAULT_DELIVERY_SETTINGS: Readonly<DeliverySettings> = Object.freeze({
  isEnabled: true,
  freeShippingThresholdPaise: 0,
  shippingChargePaise: 0,
  freeDeliveryThresholdPaise: 50_000,
  deliveryChargePaise: 5_000,
  description: '',
});
