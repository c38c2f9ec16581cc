import type { DeliverySettings } from './events.ts';

export interface DeliveryCharges {
  shippingChargePaise: number;
  deliveryChargePaise: number;
  /** True when neither charge applies. */
  isFreeDelivery: boolean;
}

/**
 * The seeds' rule: shipping is free at or above its threshold, else the shipping charge applies; delivery
 * the same with its own threshold and charge. With delivery charges switched off, nothing is charged.
 */
export function calculateCharges(settings: DeliverySettings, orderTotalPaise: number): DeliveryCharges {
  if (!settings.isEnabled) return { shippingChargePaise: 0, deliveryChargePaise: 0, isFreeDelivery: true };
  const shippingChargePaise = orderTotalPaise >= settings.freeShippingThresholdPaise ? 0 : settings.shippingChargePaise;
  const deliveryChargePaise = orderTotalPaise >= settings.freeDeliveryThresholdPaise ? 0 : settings.deliveryChargePaise;
  return { shippingChargePaise, deliveryChargePaise, isFreeDelivery: shippingChargePaise + deliveryChargePaise === 0 };
}
