import { z } from 'zod';
import { routeOf } from '@shop/shared/http/route-table';
import { awaitReadable } from '@shop/shared/runtime/read-your-writes';
import type { ServiceContext } from '@shop/shared/runtime/service';
import type { Delivery } from './delivery.ts';
import { booleanInput, hundredthsInput } from '@shop/shared/http/amount-input';
import { paiseToRupees } from '@shop/shared/money/money';
import { DELIVERY_SETTINGS_STREAM, type DeliverySettings } from './settings/events.ts';
import { DELIVERY_SETTINGS_PROJECTION } from './read-models/delivery-settings/delivery-settings-projection.ts';

// Every field optional: one left out keeps its value; one sent blank is refused.
export const SettingsBody = z.object({
  isEnabled: booleanInput('isEnabled').optional(),
  freeShippingThreshold: hundredthsInput('Free shipping threshold').optional(),
  shippingCharge: hundredthsInput('Shipping charge').optional(),
  freeDeliveryThreshold: hundredthsInput('Free delivery threshold').optional(),
  deliveryCharge: hundredthsInput('Delivery charge').optional(),
  description: z
    .union([z.string(), z.null()], 'Description must be text')
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(1000, 'Description can have at most 1000 characters'))
    .optional(),
});
// The browser sends its own subtotal (after discount), which may carry float noise: round it to paise.
export const CalculateBody = z.object({ orderTotal: hundredthsInput('Order total', { round: true }) });

/** Delivery settings as the API answers them (amounts in rupees). */
const settingsView = (s: DeliverySettings) => ({
  isEnabled: s.isEnabled,
  freeShippingThreshold: paiseToRupees(s.freeShippingThresholdPaise),
  shippingCharge: paiseToRupees(s.shippingChargePaise),
  freeDeliveryThreshold: paiseToRupees(s.freeDeliveryThresholdPaise),
  deliveryCharge: paiseToRupees(s.deliveryChargePaise),
  description: s.description,
});

/** What the delivery routes use. */
export type DeliveryPorts = Pick<ServiceContext, 'waitForProjection'> & { delivery: Delivery };

const route = routeOf<DeliveryPorts>('checkout');

/** Routes of delivery settings and charges: /api/delivery/... */
export const DELIVERY_ROUTES = [
  route({
    method: 'get',
    path: '/api/delivery/settings',
    auth: 'public',
    summary: 'Delivery settings (amounts in rupees)',
    responses: {
      200: '{isEnabled, freeShippingThreshold, shippingCharge, freeDeliveryThreshold, deliveryCharge, description}',
    },
    handler:
      ({ delivery }) =>
      async (_req, res) => {
        res.json(settingsView(await delivery.currentSettings()));
      },
  }),
  route({
    method: 'put',
    path: '/api/delivery/settings',
    auth: 'admin',
    summary: 'Change delivery settings (fields left out keep their value)',
    body: SettingsBody,
    responses: {
      200: '{message, ...settings}',
      400: 'Bad input (names the field)',
      401: 'Not signed in',
      403: 'Not an admin',
      503: 'Saved but not yet readable',
    },
    handler:
      (ctx) =>
      async (req, res, { body }) => {
        const version = await ctx.delivery.changeSettings(
          {
            isEnabled: body.isEnabled,
            freeShippingThresholdPaise: body.freeShippingThreshold,
            shippingChargePaise: body.shippingCharge,
            freeDeliveryThresholdPaise: body.freeDeliveryThreshold,
            deliveryChargePaise: body.deliveryCharge,
            description: body.description,
          },
          req.user!.id,
        );
        if (version > 0)
          await awaitReadable(
            ctx,
            { schema: 'checkout', consumer: DELIVERY_SETTINGS_PROJECTION },
            { streamId: DELIVERY_SETTINGS_STREAM, version },
            'Settings saved, but not yet readable; refresh in a moment',
          );
        res.json({ message: 'Settings updated successfully', ...settingsView(await ctx.delivery.currentSettings()) });
      },
  }),
  route({
    method: 'post',
    path: '/api/delivery/calculate',
    auth: 'public',
    summary: 'Delivery and shipping charges for an order total',
    body: CalculateBody,
    responses: { 200: '{deliveryCharge, shippingCharge, isFreeDelivery}', 400: 'Bad order total' },
    handler:
      ({ delivery }) =>
      async (_req, res, { body: { orderTotal } }) => {
        const charges = await delivery.quote(orderTotal);
        res.json({
          deliveryCharge: paiseToRupees(charges.deliveryChargePaise),
          shippingCharge: paiseToRupees(charges.shippingChargePaise),
          isFreeDelivery: charges.isFreeDelivery,
        });
      },
  }),
];
