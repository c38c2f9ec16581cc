export {
  createRazorpaySandbox,
  type RazorpaySandbox,
  type SandboxApi,
  type SandboxCollection,
  type RazorpaySandboxOptions,
  type SandboxPaymentResponse,
} from './razorpay-sandbox.ts';
export { sandboxPay } from './sandbox-pay.ts';
export { SandboxError, type RazorpayErrorBody } from './razorpay-error.ts';
export type { PaymentFailure, SandboxOrder, SandboxPayment, SandboxRefund } from './sandbox-ledger.ts';
export type { RazorpayWebhookBody, SandboxWebhookEvent, WebhookDelivery } from './webhooks.ts';
