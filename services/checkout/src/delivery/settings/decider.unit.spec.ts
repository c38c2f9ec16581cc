import { describe, expect, it } from 'vitest';
import { calculateCharges } from './charges.ts';
import { decideDeliverySettings, evolveDeliverySettings, initialDeliverySettingsState } from './decider.ts';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings, type DeliverySettingsEvent } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const given = (events: DeliverySettingsEvent[]) =>
  events.reduce(evolveDeliverySettings, initialDeliverySettingsState());
const change = (changes: Partial<DeliverySettings>) =>
  ({ type: 'ChangeDeliverySettings', data: { changes, now } }) as const;

describe('delivery settings decider', () => {
  it('starts from the seed defaults: enabled, shipping free from 0, delivery ₹50 below ₹500', () => {
    expect(given([]).settings).toEqual({
      isEnabled: true,
      freeShippingThresholdPaise: 0,
      shippingChargePaise: 0,
      freeDeliveryThresholdPaise: 50_000,
      deliveryChargePaise: 5_000,
      description: '',
    });
  });

  it('records the whole settings after a change, keeping fields left out', () => {
    expect(decideDeliverySettings(change({ shippingChargePaise: 4_000, description: 'Pan-India' }), given([]))).toEqual(
      [
        {
          type: 'DeliverySettingsChanged',
          data: {
            ...DEFAULT_DELIVERY_SETTINGS,
            shippingChargePaise: 4_000,
            description: 'Pan-India',
            changedAt: now.toISOString(),
          },
        },
      ],
    );
  });

  it('records nothing when nothing changes', () => {
    expect(decideDeliverySettings(change({ deliveryChargePaise: 5_000, isEnabled: undefined }), given([]))).toEqual([]);
    const [changed] = decideDeliverySettings(change({ isEnabled: false }), given([]));
    expect(decideDeliverySettings(change({ isEnabled: false }), given([changed!]))).toEqual([]);
  });

  it('refuses negative or fractional paise', () => {
    expect(() => decideDeliverySettings(change({ deliveryChargePaise: -1 }), given([]))).toThrow(
      'Delivery charge must be an amount of at least 0',
    );
    expect(() => decideDeliverySettings(change({ freeShippingThresholdPaise: 1.5 }), given([]))).toThrow(
      'Free shipping threshold',
    );
  });
});

describe('calculateCharges', () => {
  const settings: DeliverySettings = {
    isEnabled: true,
    freeShippingThresholdPaise: 100_000,
    shippingChargePaise: 4_000,
    freeDeliveryThresholdPaise: 50_000,
    deliveryChargePaise: 5_000,
    description: '',
  };
  it('charges each below its own threshold and nothing at or above it', () => {
    expect(calculateCharges(settings, 49_999)).toEqual({
      shippingChargePaise: 4_000,
      deliveryChargePaise: 5_000,
      isFreeDelivery: false,
    });
    expect(calculateCharges(settings, 50_000)).toEqual({
      shippingChargePaise: 4_000,
      deliveryChargePaise: 0,
      isFreeDelivery: false,
    });
    expect(calculateCharges(settings, 100_000)).toEqual({
      shippingChargePaise: 0,
      deliveryChargePaise: 0,
      isFreeDelivery: true,
    });
  });
  it('charges nothing when switched off', () => {
    expect(calculateCharges({ ...settings, isEnabled: false }, 100)).toEqual({
      shippingChargePaise: 0,
      deliveryChargePaise: 0,
      isFreeDelivery: true,
    });
  });
  it('with the defaults: ₹50 delivery below ₹500, free shipping always', () => {
    expect(calculateCharges(DEFAULT_DELIVERY_SETTINGS, 49_900)).toMatchObject({
      shippingChargePaise: 0,
      deliveryChargePaise: 5_000,
    });
    expect(calculateCharges(DEFAULT_DELIVERY_SETTINGS, 50_000).isFreeDelivery).toBe(true);
  });
});
