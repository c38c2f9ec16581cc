import { derivedSecret } from '@shop/shared/auth/derived-secret';
import type { Config } from '@shop/shared/config/config';

export const SANDBOX_PATH = '/razorpay-sandbox';
export const SANDBOX_KEY_ID = 'rzp_test_sandbox';

export interface PaymentSettings {
  /** true when no Razorpay keys are configured and the project's sandbox stands in. */
  sandbox: boolean;
  keyId: string;
  keySecret: string;
  /** Secret of webhook signatures; null = webhooks cannot be verified and are refused. */
  webhookSecret: string | null;
  /** Razorpay API base (undefined = the real Razorpay host). */
  apiUrl: string | undefined;
}

/**
 * Real keys when RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are set; otherwise the built-in sandbox,
 * reached at RAZORPAY_API_URL or, by default, `<gatewayUrl>/razorpay-sandbox`.
 */
export function paymentSettings(config: Config, gatewayUrl: string): PaymentSettings {
  if (config.RAZORPAY_KEY_ID && config.RAZORPAY_KEY_SECRET) {
    return {
      sandbox: false,
      keyId: config.RAZORPAY_KEY_ID,
      keySecret: config.RAZORPAY_KEY_SECRET,
      webhookSecret: config.RAZORPAY_WEBHOOK_SECRET ?? null,
      apiUrl: config.RAZORPAY_API_URL,
    };
  }
  return {
    sandbox: true,
    keyId: SANDBOX_KEY_ID,
    keySecret: derivedSecret(config.JWT_SECRET, 'razorpay-sandbox-key-secret'),
    webhookSecret:
      config.RAZORPAY_WEBHOOK_SECRET ?? derivedSecret(config.JWT_SECRET, 'razorpay-sandbox-webhook-secret'),
    apiUrl: config.RAZORPAY_API_URL ?? `${gatewayUrl}${SANDBOX_PATH}`,
  };
}
