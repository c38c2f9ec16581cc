import type { DeliverySettings } from './api/pricing-api';

export type DeliveryFormValues = {
  isEnabled: boolean;
  freeShippingThreshold: string;
  shippingCharge: string;
  freeDeliveryThreshold: string;
  deliveryCharge: string;
  description: string;
};

export const amountFields = [
  'freeShippingThreshold',
  'shippingCharge',
  'freeDeliveryThreshold',
  'deliveryCharge',
] as const;
export type AmountField = (typeof amountFields)[number];

export function settingsToForm(settings: DeliverySettings): DeliveryFormValues {
  return {
    isEnabled: settings.isEnabled,
    freeShippingThreshold: settings.freeShippingThreshold.toFixed(2),
    shippingCharge: settings.shippingCharge.toFixed(2),
    freeDeliveryThreshold: settings.freeDeliveryThreshold.toFixed(2),
    deliveryCharge: settings.deliveryCharge.toFixed(2),
    description: settings.description,
  };
}

/** Every amount numeric, at least 0, with up to 2 decimals (seed 001, section 5). */
export function deliveryFormToSettings(
  values: DeliveryFormValues,
): { ok: true; settings: DeliverySettings } | { ok: false; field: AmountField; message: string } {
  const amounts = {} as Record<AmountField, number>;
  for (const field of amountFields) {
    const text = values[field].trim();
    if (!/^\d+(\.\d{1,2})?$/.test(text))
      return { ok: false, field, message: 'Enter an amount of 0 or more with up to 2 decimals' };
    amounts[field] = Number(text);
  }
  return { ok: true, settings: { isEnabled: values.isEnabled, ...amounts, description: values.description.trim() } };
}

/**
 * The charges an order total meets under these settings: shipping is free at or above its threshold,
 * else the shipping charge; delivery the same with its own; the total is both. Nothing when disabled.
 */
export function chargesFor(settings: DeliverySettings, orderTotal: number) {
  if (!settings.isEnabled) return { shipping: 0, delivery: 0, total: 0 };
  const shipping = orderTotal >= settings.freeShippingThreshold ? 0 : settings.shippingCharge;
  const delivery = orderTotal >= settings.freeDeliveryThreshold ? 0 : settings.deliveryCharge;
  return { shipping, delivery, total: shipping + delivery };
}
