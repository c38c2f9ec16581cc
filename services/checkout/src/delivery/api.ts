import { Router } from 'express';
import { z } from 'zod';
import { requireAdmin } from '@shop/shared/auth/tokens';
import { parseInput } from '@shop/shared/http/validation';
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

/** Routes of delivery settings and charges: /api/delivery/... */
export function deliveryRouter(ctx: ServiceContext, delivery: Delivery): Router {
  const r = Router();

  r.get('/api/delivery/settings', async (_req, res) => {
    res.json(settingsView(await delivery.currentSettings()));
  });

  r.put('/api/delivery/settings', requireAdmin, async (req, res) => {
    const body = parseInput(SettingsBody, req.body ?? {});
    const version = await delivery.changeSettings(
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
    res.json({ message: 'Settings updated successfully', ...settingsView(await delivery.currentSettings()) });
  });

  r.post('/api/delivery/calculate', async (req, res) => {
    const { orderTotal } = parseInput(CalculateBody, req.body ?? {});
    const charges = await delivery.quote(orderTotal);
    res.json({
      deliveryCharge: paiseToRupees(charges.deliveryChargePaise),
      shippingCharge: paiseToRupees(charges.shippingChargePaise),
      isFreeDelivery: charges.isFreeDelivery,
    });
  });

  return r;
}
