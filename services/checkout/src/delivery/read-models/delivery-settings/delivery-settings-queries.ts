import type pg from 'pg';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '../../settings/events.ts';

interface Row {
  is_enabled: boolean;
  free_shipping_threshold_paise: bigint;
  shipping_charge_paise: bigint;
  free_delivery_threshold_paise: bigint;
  delivery_charge_paise: bigint;
  description: string;
}

/** The settings in force: the saved ones, or the defaults when an admin never saved any. */
export async function readDeliverySettings(db: pg.Pool | pg.PoolClient): Promise<DeliverySettings> {
  const { rows } = await db.query<Row>(
    `SELECT is_enabled, free_shipping_threshold_paise, shipping_charge_paise, free_delivery_threshold_paise,
            delivery_charge_paise, description FROM checkout.delivery_settings`,
  );
  const r = rows[0];
  if (!r) return { ...DEFAULT_DELIVERY_SETTINGS };
  return {
    isEnabled: r.is_enabled,
    freeShippingThresholdPaise: Number(r.free_shipping_threshold_paise),
    shippingChargePaise: Number(r.shipping_charge_paise),
    freeDeliveryThresholdPaise: Number(r.free_delivery_threshold_paise),
    deliveryChargePaise: Number(r.delivery_charge_paise),
    description: r.description,
  };
}
