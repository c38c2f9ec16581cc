import { ValidationError } from '@shop/shared/errors/errors';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings, type DeliverySettingsEvent } from './events.ts';

export type DeliverySettingsState = { settings: DeliverySettings };

export type ChangeDeliverySettings = {
  type: 'ChangeDeliverySettings';
  /** Fields left out keep their current value. */
  data: { changes: Partial<DeliverySettings>; now: Date };
};
export type DeliverySettingsCommand = ChangeDeliverySettings;

export const initialDeliverySettingsState = (): DeliverySettingsState => ({
  settings: { ...DEFAULT_DELIVERY_SETTINGS },
});

export function evolveDeliverySettings(
  _state: DeliverySettingsState,
  event: DeliverySettingsEvent,
): DeliverySettingsState {
  switch (event.type) {
    case 'DeliverySettingsChanged': {
      const { changedAt: _c, ...settings } = event.data;
      return { settings };
    }
  }
}

const AMOUNT_LABELS = {
  freeShippingThresholdPaise: 'Free shipping threshold',
  shippingChargePaise: 'Shipping charge',
  freeDeliveryThresholdPaise: 'Free delivery threshold',
  deliveryChargePaise: 'Delivery charge',
} as const;

export function decideDeliverySettings(
  command: DeliverySettingsCommand,
  state: DeliverySettingsState,
): DeliverySettingsEvent[] {
  switch (command.type) {
    case 'ChangeDeliverySettings': {
      const defined = Object.fromEntries(
        Object.entries(command.data.changes).filter(([, v]) => v !== undefined),
      ) as Partial<DeliverySettings>;
      const next: DeliverySettings = { ...state.settings, ...defined };
      for (const [key, label] of Object.entries(AMOUNT_LABELS)) {
        const paise = next[key as keyof typeof AMOUNT_LABELS];
        if (!Number.isSafeInteger(paise) || paise < 0)
          throw new ValidationError(`${label} must be an amount of at least 0`);
      }
      const unchanged = (Object.keys(next) as Array<keyof DeliverySettings>).every(
        (k) => next[k] === state.settings[k],
      );
      if (unchanged) return [];
      return [{ type: 'DeliverySettingsChanged', data: { ...next, changedAt: command.data.now.toISOString() } }];
    }
    default: {
      const never: never = command.type;
      throw new Error(`Unknown command ${String(never)}`);
    }
  }
}
