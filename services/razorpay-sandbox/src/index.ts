export {
  createRazorpaySandbox,
  type RazorpaySandbox,
  type RazorpaySandboxOptions,
  type SandboxPaymentResponse,
} from './razorpay-sandbox.ts';
export { sandboxPay } from './sandbox-pay.ts';
export type { RazorpayErrorBody } from './razorpay-error.ts';
export type { PaymentFailure, SandboxOrder, SandboxPayment, SandboxRefund } from './sandbox-ledger.ts';
export type { RazorpayWebhookBody, SandboxWebhookEvent } from './webhooks.ts';
