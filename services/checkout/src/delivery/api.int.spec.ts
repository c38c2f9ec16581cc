import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDelivery } from './index.ts';
import { startCheckoutTestHost, type CheckoutTestHost } from '../testing/checkout-test-host.ts';

let host: CheckoutTestHost<ReturnType<typeof createDelivery>>;
let admin: string;
let shopper: string;
beforeAll(async () => {
  host = await startCheckoutTestHost(createDelivery);
  admin = await host.login();
  shopper = (await host.signUp('Meera', 'meera@example.in')).token;
});
afterAll(() => host.stop());

const calculate = (orderTotal: unknown) => host.api('POST', '/api/delivery/calculate', { body: { orderTotal } });

describe('delivery API', () => {
  it('answers the seed defaults before any admin saves settings, and charges by them', async () => {
    expect(await host.api('GET', '/api/delivery/settings')).toMatchObject({
      status: 200,
      body: {
        isEnabled: true,
        freeShippingThreshold: 0,
        shippingCharge: 0,
        freeDeliveryThreshold: 500,
        deliveryCharge: 50,
        description: '',
      },
    });
    expect((await calculate(499.99)).body).toEqual({ deliveryCharge: 50, shippingCharge: 0, isFreeDelivery: false });
    expect((await calculate(500)).body).toEqual({ deliveryCharge: 0, shippingCharge: 0, isFreeDelivery: true });
    expect(await host.slice.delivery.quote(10_000)).toEqual({
      shippingChargePaise: 0,
      deliveryChargePaise: 5_000,
      isFreeDelivery: false,
    });
  });

  it('lets only an admin change the settings: 401 without a token, 403 for a shopper', async () => {
    const body = { shippingCharge: 10 };
    expect((await host.api('PUT', '/api/delivery/settings', { body })).status).toBe(401);
    expect(await host.api('PUT', '/api/delivery/settings', { body, token: shopper })).toMatchObject({
      status: 403,
      body: { message: 'Admin access required' },
    });
    expect((await host.api('GET', '/api/delivery/settings')).body).toMatchObject({ shippingCharge: 0 });
  });

  it('saves new settings, answers them at once, and charges by them', async () => {
    const r = await host.api('PUT', '/api/delivery/settings', {
      token: admin,
      body: {
        isEnabled: true,
        freeShippingThreshold: '999.50',
        shippingCharge: 40,
        freeDeliveryThreshold: 1499,
        deliveryCharge: 60.25,
        description: 'Pan-India delivery in 5-7 days',
      },
    });
    expect(r).toMatchObject({
      status: 200,
      body: {
        message: 'Settings updated successfully',
        freeShippingThreshold: 999.5,
        shippingCharge: 40,
        freeDeliveryThreshold: 1499,
        deliveryCharge: 60.25,
        description: 'Pan-India delivery in 5-7 days',
      },
    });
    expect((await host.api('GET', '/api/delivery/settings')).body).toMatchObject({ deliveryCharge: 60.25 });
    expect((await calculate(999.49)).body).toEqual({
      deliveryCharge: 60.25,
      shippingCharge: 40,
      isFreeDelivery: false,
    });
    expect((await calculate(999.5)).body).toEqual({ deliveryCharge: 60.25, shippingCharge: 0, isFreeDelivery: false });
    expect((await calculate(1499)).body).toEqual({ deliveryCharge: 0, shippingCharge: 0, isFreeDelivery: true });
    expect(await host.slice.delivery.quote(100_000)).toEqual({
      shippingChargePaise: 0,
      deliveryChargePaise: 6_025,
      isFreeDelivery: false,
    });
  });

  it('charges nothing when an admin switches delivery charges off; other fields keep their values', async () => {
    const r = await host.api('PUT', '/api/delivery/settings', { token: admin, body: { isEnabled: false } });
    expect(r.body).toMatchObject({ isEnabled: false, shippingCharge: 40, deliveryCharge: 60.25 });
    expect((await calculate(1)).body).toEqual({ deliveryCharge: 0, shippingCharge: 0, isFreeDelivery: true });
  });

  it('refuses bad amounts with clear messages and changes nothing', async () => {
    const put = (body: unknown) => host.api('PUT', '/api/delivery/settings', { token: admin, body });
    expect(await put({ deliveryCharge: -5 })).toMatchObject({
      status: 400,
      body: { message: 'Delivery charge must be at least 0' },
    });
    expect(await put({ shippingCharge: 'forty' })).toMatchObject({
      status: 400,
      body: { message: 'Shipping charge must be a number' },
    });
    expect(await put({ freeDeliveryThreshold: 10.255 })).toMatchObject({
      status: 400,
      body: { message: 'Free delivery threshold can have at most 2 decimals' },
    });
    expect(await put({ freeShippingThreshold: '' })).toMatchObject({
      status: 400,
      body: { message: 'Free shipping threshold is required' },
    });
    expect(await put({ isEnabled: 'yes' })).toMatchObject({
      status: 400,
      body: { message: 'isEnabled must be true or false' },
    });
    expect((await host.api('GET', '/api/delivery/settings')).body).toMatchObject({
      isEnabled: false,
      deliveryCharge: 60.25,
      freeDeliveryThreshold: 1499,
    });
  });

  it('refuses a missing or negative order total, and rounds browser float noise to paise', async () => {
    expect(await host.api('POST', '/api/delivery/calculate', { body: {} })).toMatchObject({
      status: 400,
      body: { message: 'Order total is required' },
    });
    expect(await calculate(-1)).toMatchObject({ status: 400, body: { message: 'Order total must be at least 0' } });
    await host.api('PUT', '/api/delivery/settings', { token: admin, body: { isEnabled: true } });
    // 1499 - 0.001 rounds to 1499.00: at the threshold, so delivery is free
    expect((await calculate(1498.999)).body).toMatchObject({ deliveryCharge: 0 });
  });

  it('records each change as an event', async () => {
    const { rows } = await host.db.pool.query<{ type: string }>(
      `SELECT type FROM checkout.events WHERE stream_id = 'delivery-settings' ORDER BY stream_version`,
    );
    expect(rows.map((r) => r.type)).toEqual([
      'DeliverySettingsChanged',
      'DeliverySettingsChanged',
      'DeliverySettingsChanged',
    ]);
  });
});
