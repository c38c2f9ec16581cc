import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@shop/test-support/given-when-then';
import { calculateCharges } from './charges.ts';
import { decideDeliverySettings, evolveDeliverySettings, initialDeliverySettingsState } from './decider.ts';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './events.ts';

const now = new Date('2026-11-22T10:00:00Z');
const given = deciderSpec({
  decide: decideDeliverySettings,
  evolve: evolveDeliverySettings,
  initialState: initialDeliverySettingsState,
});
const change = (changes: Partial<DeliverySettings>) =>
  ({ type: 'ChangeDeliverySettings', data: { changes, now } }) as const;

describe('delivery settings decider', () => {
  it('starts from the seed defaults: enabled, shipping free from 0, delivery ₹50 below ₹500', () => {
    expect(given([]).state().settings).toEqual({
      isEnabled: true,
      freeShippingThresholdPaise: 0,
      shippingChargePaise: 0,
      freeDeliveryThresholdPaise: 50_000,
      deliveryChargePaise: 5_000,
      description: '',
    });
  });

  it('records the whole settings after a change, keeping fields left out', () => {
    given([])
      .when(change({ shippingChargePaise: 4_000, description: 'Pan-India' }))
      .then([
        {
          type: 'DeliverySettingsChanged',
          data: {
            ...DEFAULT_DELIVERY_SETTINGS,
            shippingChargePaise: 4_000,
            description: 'Pan-India',
            changedAt: now.toISOString(),
          },
        },
      ]);
  });

  it('records nothing when nothing changes', () => {
    given([])
      .when(change({ deliveryChargePaise: 5_000, isEnabled: undefined }))
      .then([]);
    const [changed] = given([])
      .when(change({ isEnabled: false }))
      .events();
    given([changed!])
      .when(change({ isEnabled: false }))
      .then([]);
  });

  it('refuses negative or fractional paise', () => {
    given([])
      .when(change({ deliveryChargePaise: -1 }))
      .then('Delivery charge must be an amount of at least 0');
    given([])
      .when(change({ freeShippingThresholdPaise: 1.5 }))
      .then('Free shipping threshold');
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
