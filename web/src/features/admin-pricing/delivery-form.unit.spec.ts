import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_SETTINGS as defaults } from './api/pricing-api';
import { chargesFor, deliveryFormToSettings, settingsToForm } from './delivery-form';

describe('chargesFor', () => {
  it("applies the seed's defaults: ₹50 delivery below ₹500, free at or above it", () => {
    expect(chargesFor(defaults, 499.99)).toEqual({ shipping: 0, delivery: 50, total: 50 });
    expect(chargesFor(defaults, 500)).toEqual({ shipping: 0, delivery: 0, total: 0 });
  });

  it('adds shipping and delivery, each with its own threshold', () => {
    const settings = { ...defaults, freeShippingThreshold: 1000, shippingCharge: 40 };
    expect(chargesFor(settings, 300)).toEqual({ shipping: 40, delivery: 50, total: 90 });
    expect(chargesFor(settings, 700)).toEqual({ shipping: 40, delivery: 0, total: 40 });
  });

  it('charges nothing when delivery charges are disabled', () => {
    expect(chargesFor({ ...defaults, isEnabled: false }, 10)).toEqual({ shipping: 0, delivery: 0, total: 0 });
  });
});

describe('deliveryFormToSettings', () => {
  it('reads the amounts back from the form', () => {
    expect(deliveryFormToSettings(settingsToForm(defaults))).toEqual({ ok: true, settings: defaults });
  });

  it('refuses negatives, more than 2 decimals and blanks', () => {
    const form = settingsToForm(defaults);
    expect(deliveryFormToSettings({ ...form, deliveryCharge: '-1' })).toMatchObject({
      ok: false,
      field: 'deliveryCharge',
    });
    expect(deliveryFormToSettings({ ...form, shippingCharge: '1.005' })).toMatchObject({ ok: false });
    expect(deliveryFormToSettings({ ...form, freeDeliveryThreshold: '' })).toMatchObject({ ok: false });
  });
});
