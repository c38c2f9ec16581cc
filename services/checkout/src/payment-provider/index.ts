export type {
  CreateProviderOrder,
  PaymentProvider,
  ProviderOrder,
  ProviderOrderStatus,
  ProviderPayment,
  ProviderPaymentStatus,
  ProviderRefund,
} from './provider.ts';
export { ProviderOrderUnknownError } from './provider.ts';
export { createRazorpayProvider, type RazorpayProviderOptions } from './razorpay-provider.ts';
export { createInProcessSandboxProvider } from './sandbox-provider.ts';
export { inProcessWebhookReceiver, WebhookNotTakenError, type WebhookAnswer } from './in-process-webhooks.ts';
export {
  paymentSignature,
  verifyPaymentSignature,
  verifyWebhookSignature,
  webhookSignature,
} from '@shop/razorpay-sandbox/signatures';
