import { env } from '@/config/env';
import type { PaymentResponse } from './api/checkout-api';

// Razorpay's checkout.js, or the built-in sandbox's stand-in when the server runs without Razorpay keys
// (its key id is rzp_test_sandbox). Both define window.Razorpay with the same options and events.

export const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';
export const SANDBOX_KEY_ID = 'rzp_test_sandbox';
/** Where the gateway serves the sandbox's checkout.js (same origin as the API: the CSP allows it). */
export const SANDBOX_CHECKOUT_URL = `${env.serverOrigin}/razorpay-sandbox/v1/checkout.js`;
/** The payment dialog's fixed theme colour (the shop's accent). */
export const PAYMENT_THEME_COLOR = '#b4412f';

export type RazorpayFailure = { error?: { description?: string; reason?: string; code?: string } };

export type RazorpayOptions = {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill: { name: string; email: string; contact: string };
  theme: { color: string };
  handler: (response: PaymentResponse) => void;
  modal: { ondismiss: () => void };
};

export type RazorpayInstance = {
  open(): void;
  close?(): void;
  on(event: 'payment.failed', callback: (response: RazorpayFailure) => void): void;
};

type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

/** True when the key id is the built-in sandbox's: no money moves. */
export function isSandboxKey(keyId: string): boolean {
  return keyId === SANDBOX_KEY_ID;
}

/** The checkout script for a key: the sandbox's for the sandbox key, else Razorpay's. */
export function checkoutScriptUrl(keyId: string): string {
  return isSandboxKey(keyId) ? SANDBOX_CHECKOUT_URL : RAZORPAY_CHECKOUT_URL;
}

const loads = new Map<string, Promise<RazorpayConstructor>>();

/** Loads a checkout script once (unless the page has Razorpay already) and resolves with window.Razorpay; a failed load may be tried again. */
export function loadCheckoutScript(url: string): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  const pending = loads.get(url);
  if (pending) return pending;
  const load = new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => {
      if (window.Razorpay) resolve(window.Razorpay);
      else reject(new Error('The payment script did not define Razorpay'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`Could not load ${url}`));
    };
    document.head.appendChild(script);
  });
  load.catch(() => loads.delete(url));
  loads.set(url, load);
  return load;
}

/**
 * Whether the shop runs the built-in sandbox: its checkout.js is served only then (a real-keys shop
 * answers that path with something else, or not at all).
 */
export async function sandboxInUse(signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(SANDBOX_CHECKOUT_URL, { method: 'HEAD', signal });
    return res.ok && (res.headers.get('content-type') ?? '').includes('javascript');
  } catch {
    return false;
  }
}
