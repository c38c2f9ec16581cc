import { SandboxError, type SandboxApi } from '@shop/razorpay-sandbox';
import type { PaymentProvider } from './provider.ts';
import { providerOver, type RazorpayApi } from './razorpay-provider.ts';

/**
 * A PaymentProvider that calls the built-in sandbox in process, for the shop that hosts it: no SDK, no
 * axios, no HTTP round trip to itself. The calls, checks and error mapping are the Razorpay provider's
 * (providerOver); the sandbox's refusals reach it as the SDK would have handed them over after the HTTP
 * answer (`{ statusCode, error }`), so every caller sees the same errors and messages either way.
 */
export function createInProcessSandboxProvider(keyId: string, sandbox: SandboxApi): PaymentProvider {
  return providerOver(keyId, inProcessApi(sandbox));
}

function inProcessApi(sandbox: SandboxApi): RazorpayApi {
  return {
    createOrder: (body) => answer(() => sandbox.createOrder(body)),
    fetchOrder: (orderId) => answer(() => sandbox.order(orderId)),
    fetchPayments: (orderId) => answer(() => sandbox.paymentsOf(orderId)),
    refund: (paymentId, body) => answer(() => sandbox.refund(paymentId, body)),
    fetchRefunds: (paymentId) => answer(() => sandbox.refundsOf(paymentId)),
  };
}

/** The sandbox's refusal as the SDK rejects with the HTTP answer it would have sent. */
async function answer(op: () => Promise<unknown>): Promise<unknown> {
  try {
    return await op();
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    throw Object.assign(new Error(err.message), { statusCode: err.status, error: err.toBody().error });
  }
}
