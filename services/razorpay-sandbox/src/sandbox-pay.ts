import type { RazorpayErrorBody } from './razorpay-error.ts';
import type { SandboxPaymentResponse } from './razorpay-sandbox.ts';

/**
 * Pays a sandbox order as the shopper's dialog would, for tests and benchmarks: `baseUrl` is where the
 * sandbox is mounted (e.g. `http://localhost:8080/razorpay-sandbox`). Throws with the sandbox's description
 * when it refuses (order unknown or already paid).
 */
export async function sandboxPay(baseUrl: string, orderId: string): Promise<SandboxPaymentResponse> {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/checkout/orders/${encodeURIComponent(orderId)}/pay`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json().catch(() => null)) as Partial<SandboxPaymentResponse & RazorpayErrorBody> | null;
  if (!res.ok || !body?.razorpay_order_id || !body.razorpay_payment_id || !body.razorpay_signature) {
    throw new Error(
      `Sandbox pay of ${orderId} failed (${res.status}): ${body?.error?.description ?? 'unexpected answer'}`,
    );
  }
  return {
    razorpay_order_id: body.razorpay_order_id,
    razorpay_payment_id: body.razorpay_payment_id,
    razorpay_signature: body.razorpay_signature,
  };
}
