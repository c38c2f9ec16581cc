import { derivedSecret } from '@shop/shared/auth/derived-secret';
import type { Config } from '@shop/shared/config/config';

/** Where the gateway (embedded shop, or distributed gateway) mounts the built-in Shiprocket sandbox. */
export const SHIPROCKET_SANDBOX_PATH = '/shiprocket-sandbox';
const SHIPROCKET_API = 'https://apiv2.shiprocket.in/v1/external';
const SHIPROCKET_TRACKING = 'https://shiprocket.co/tracking/';

export interface ShippingSettings {
  /** true when no Shiprocket credentials are configured and the project's sandbox stands in. */
  sandbox: boolean;
  email: string;
  password: string;
  /** Base of the external API, up to /v1/external. */
  apiUrl: string;
  /** The token tracking webhooks carry in x-api-key; null = none configured, every webhook is refused. */
  webhookToken: string | null;
  pickupLocation: string;
  /** A parcel's tracking page is this followed by its AWB (the sandbox's is on the shop's own origin). */
  trackingUrlBase: string;
}

/**
 * Real Shiprocket when SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD are set; otherwise the built-in sandbox,
 * reached at SHIPROCKET_API_URL or, by default, `<gatewayUrl>/shiprocket-sandbox/v1/external`.
 */
export function shippingSettings(config: Config, gatewayUrl: string): ShippingSettings {
  const pickupLocation = config.SHIPROCKET_PICKUP_LOCATION;
  if (config.SHIPROCKET_EMAIL && config.SHIPROCKET_PASSWORD) {
    return {
      sandbox: false,
      email: config.SHIPROCKET_EMAIL,
      password: config.SHIPROCKET_PASSWORD,
      apiUrl: config.SHIPROCKET_API_URL ?? SHIPROCKET_API,
      webhookToken: config.SHIPROCKET_WEBHOOK_TOKEN ?? null,
      pickupLocation,
      trackingUrlBase: SHIPROCKET_TRACKING,
    };
  }
  return {
    sandbox: true,
    email: 'api-user@shiprocket-sandbox.local',
    password: derivedSecret(config.JWT_SECRET, 'shiprocket-sandbox-password'),
    apiUrl: config.SHIPROCKET_API_URL ?? `${gatewayUrl}${SHIPROCKET_SANDBOX_PATH}/v1/external`,
    webhookToken:
      config.SHIPROCKET_WEBHOOK_TOKEN ?? derivedSecret(config.JWT_SECRET, 'shiprocket-sandbox-webhook-token'),
    pickupLocation,
    trackingUrlBase: `${SHIPROCKET_SANDBOX_PATH}/tracking/`,
  };
}
