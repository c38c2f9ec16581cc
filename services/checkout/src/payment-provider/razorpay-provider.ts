import Razorpay from 'razorpay';
import { z } from 'zod';
import { AppError, UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import { parseInput } from '@shop/shared/http/validation';
import {
  ProviderOrderUnknownError,
  type CreateProviderOrder,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
} from './provider.ts';

export interface RazorpayProviderOptions {
  keyId: string;
  keySecret: string;
  /**
   * Base URL of a Razorpay-compatible API (the sandbox, e.g. `http://localhost:8080/razorpay-sandbox`);
   * unset = Razorpay itself. The SDK adds `/v1/...` to it.
   */
  apiUrl?: string;
  /** Per-request timeout; the SDK has none, so a hung provider would hang checkout. */
  timeoutMs?: number;
}

const UNREACHABLE = 'Payment provider is unreachable, please try again';
const FAILED = 'Payment provider failed, please try again';
const REFUSED = 'Payment provider refused the request';
const ORDER_ID = /^order_[A-Za-z0-9]{1,40}$/;
const PAYMENT_ID = /^pay_[A-Za-z0-9]{1,40}$/;
// Razorpay's answer (400, BAD_REQUEST_ERROR) to an order id it has no order for; the sandbox's is the same.
const UNKNOWN_ID = /^the id provided does not exist/i;

/** A PaymentProvider that talks to Razorpay (or the sandbox, given `apiUrl`) through the official SDK. */
export function createRazorpayProvider(opts: RazorpayProviderOptions): PaymentProvider {
  if (!opts.keyId || !opts.keySecret) throw new ValidationError('Razorpay key id and key secret are required');
  const sdk = new Razorpay({ key_id: opts.keyId, key_secret: opts.keySecret });
  configureHttpClient(sdk, opts);
  return providerOver(opts.keyId, {
    createOrder: (body) => sdk.orders.create(body),
    fetchOrder: (orderId) => sdk.orders.fetch(orderId),
    fetchPayments: (orderId) => sdk.orders.fetchPayments(orderId),
    refund: (paymentId, body) => sdk.payments.refund(paymentId, body),
    fetchRefunds: (paymentId) => sdk.payments.fetchMultipleRefund(paymentId, { count: 100 }),
  });
}

/**
 * The calls of Razorpay's API the provider makes, with Razorpay's request bodies. Each resolves to the JSON
 * Razorpay answers, or rejects with what the SDK rejects with for an error answer: `{ statusCode, error }`,
 * `error` being the answer's error object (status 0: no answer).
 */
export interface RazorpayApi {
  createOrder(body: {
    amount: number;
    currency: 'INR';
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<unknown>;
  fetchOrder(orderId: string): Promise<unknown>;
  fetchPayments(orderId: string): Promise<unknown>;
  refund(paymentId: string, body: { amount: number; receipt: string }): Promise<unknown>;
  fetchRefunds(paymentId: string): Promise<unknown>;
}

/**
 * The PaymentProvider over a Razorpay API, reached through the SDK or called in process (the sandbox): the
 * same input checks, answer checks and error mapping whichever way the call goes.
 */
export function providerOver(keyId: string, api: RazorpayApi): PaymentProvider {
  return {
    keyId,

    async createOrder(input) {
      const order = parseInput(createOrderInput, input);
      const answer = await call(() =>
        api.createOrder({
          amount: order.amountPaise,
          currency: order.currency,
          receipt: order.receipt,
          ...(order.notes ? { notes: order.notes } : {}),
        }),
      );
      return parseAnswer(providerOrder, answer);
    },

    async fetchOrder(orderId) {
      const answer = await call(() => api.fetchOrder(checkOrderId(orderId)), orderId);
      return parseAnswer(providerOrder, answer);
    },

    async fetchPayments(orderId) {
      const answer = await call(() => api.fetchPayments(checkOrderId(orderId)), orderId);
      return parseAnswer(paymentCollection, answer).items;
    },

    async refund(paymentId, amountPaise, { receipt }) {
      const input = parseInput(refundInput, { amountPaise, receipt });
      const answer = await call(() =>
        api.refund(checkPaymentId(paymentId), { amount: input.amountPaise, receipt: input.receipt }),
      );
      return parseAnswer(providerRefund, answer);
    },

    async fetchRefunds(paymentId) {
      const answer = await call(() => api.fetchRefunds(checkPaymentId(paymentId)));
      return parseAnswer(refundCollection, answer).items.sort((a, b) => a.created_at - b.created_at);
    },
  };
}

/**
 * The SDK hard-codes `https://api.razorpay.com` (node_modules/razorpay/dist/razorpay.js, `new API({ hostUrl })`)
 * and keeps the axios instance it builds from it in `api.rq` (node_modules/razorpay/dist/api.js,
 * `this.rq = axios.create(...)`); every call goes through `rq` with a path of `/v1/...`. Neither is in the
 * SDK's typings, so the shape is checked here: if an SDK upgrade moves it, start-up fails instead of the
 * sandbox keys quietly going to the real Razorpay.
 */
function configureHttpClient(sdk: Razorpay, opts: RazorpayProviderOptions) {
  const rq = (sdk.api as unknown as { rq?: AxiosLike }).rq;
  if (!rq?.defaults || !rq.interceptors?.response) {
    throw new Error(
      'razorpay SDK internals changed: cannot find its HTTP client (api.rq); check createRazorpayProvider',
    );
  }
  if (opts.apiUrl !== undefined) rq.defaults.baseURL = apiBase(opts.apiUrl);
  rq.defaults.timeout = opts.timeoutMs ?? 15_000;
  // The SDK's error mapper reads `err.response.status` and so turns every network failure into a TypeError
  // that has lost its cause. Giving such failures a response of status 0 keeps the cause for call() below.
  rq.interceptors.response.use(undefined, (err: unknown) => {
    if (err && typeof err === 'object' && !(err as { response?: unknown }).response) {
      const e = err as { message?: string; code?: string };
      return Promise.reject({
        response: {
          status: 0,
          data: { error: { code: e.code ?? 'NETWORK_ERROR', description: e.message ?? String(err) } },
        },
      });
    }
    return Promise.reject(err);
  });
}

interface AxiosLike {
  defaults?: { baseURL?: string; timeout?: number };
  interceptors?: { response?: { use(onOk: undefined, onError: (err: unknown) => unknown): number } };
}

/** `https://host/base`, without a trailing `/` or `/v1` (the SDK adds `/v1/...` itself). */
function apiBase(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ValidationError(`Razorpay API URL is not a URL: ${apiUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(`Razorpay API URL must be http(s): ${apiUrl}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Runs one API call, turning whatever it throws into an AppError that says whether to retry. `orderId`:
 * the order the call is about; the provider not knowing it becomes ProviderOrderUnknownError.
 */
async function call(op: () => Promise<unknown>, orderId?: string): Promise<unknown> {
  try {
    return await op();
  } catch (err) {
    throw toAppError(err, orderId);
  }
}

function toAppError(err: unknown, orderId?: string): AppError {
  if (err instanceof AppError) return err;
  // What the SDK throws for an HTTP answer (RazorpayApi): { statusCode, error: Razorpay's error object (if JSON) }.
  const answer = err as { statusCode?: unknown; error?: { description?: unknown; code?: unknown } } | null;
  const status = typeof answer?.statusCode === 'number' ? answer.statusCode : undefined;
  const description = typeof answer?.error?.description === 'string' ? answer.error.description : undefined;
  let mapped: AppError;
  if (status === undefined || status === 0) mapped = new UnavailableError(UNREACHABLE);
  // Only the provider's own "no such id" answer: a bare 404 (a wrong API URL, a proxy) must not read as
  // "unknown order", or the expiry sweep would expire orders that may have been paid.
  else if (orderId && (status === 400 || status === 404) && description && UNKNOWN_ID.test(description))
    mapped = new ProviderOrderUnknownError(orderId, description);
  // 429 is Razorpay's rate limit: the request was fine, it may succeed later.
  else if (status >= 400 && status < 500 && status !== 429) mapped = new ValidationError(description ?? REFUSED);
  else mapped = new UnavailableError(description ?? FAILED);
  // Logs keep what the provider said (or the socket error); users see only the message.
  mapped.cause =
    answer && typeof answer === 'object' && 'error' in answer ? { statusCode: status, ...answer.error } : err;
  return mapped;
}

function checkOrderId(orderId: string): string {
  // The SDK pastes the id into the URL unescaped: 'order_x/payments' would call a different endpoint.
  if (typeof orderId !== 'string' || !ORDER_ID.test(orderId)) throw new ValidationError('Invalid payment order id');
  return orderId;
}

function checkPaymentId(paymentId: string): string {
  if (typeof paymentId !== 'string' || !PAYMENT_ID.test(paymentId)) throw new ValidationError('Invalid payment id');
  return paymentId;
}

function parseAnswer<S extends z.ZodType>(schema: S, answer: unknown): z.infer<S> {
  const r = schema.safeParse(answer);
  if (r.success) return r.data;
  const err = new UnavailableError('Payment provider gave an unexpected answer, please try again');
  err.cause = r.error;
  throw err;
}

/** A receipt as Razorpay takes it: 1 to 40 characters. */
const receiptInput = z.string().min(1, 'Receipt is required').max(40, 'Receipt must be at most 40 characters');

const createOrderInput = z.object({
  amountPaise: z
    .number({ error: 'Amount must be a number of paise' })
    .int('Amount must be a whole number of paise')
    .min(100, 'Amount must be at least ₹1.00'),
  currency: z.literal('INR', { error: 'Currency must be INR' }),
  receipt: receiptInput,
  notes: z.record(z.string(), z.string().max(256)).optional(),
}) satisfies z.ZodType<CreateProviderOrder>;

/** A receipt as Razorpay answers it: absent or null when none was given. */
const receiptOrNull = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

const providerOrder = z.object({
  id: z.string(),
  amount: z.coerce.number().int(),
  amount_paid: z.coerce.number().int(),
  amount_due: z.coerce.number().int(),
  currency: z.string(),
  receipt: receiptOrNull,
  status: z.enum(['created', 'attempted', 'paid']),
  created_at: z.number().int(),
}) satisfies z.ZodType<ProviderOrder, unknown>;

const providerPayment = z.object({
  id: z.string(),
  order_id: z.string(),
  amount: z.coerce.number().int(),
  currency: z.string(),
  status: z.enum(['created', 'authorized', 'captured', 'failed', 'refunded']),
  method: z.string(),
  error_description: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
  created_at: z.number().int(),
}) satisfies z.ZodType<ProviderPayment, unknown>;

const paymentCollection = z.object({ items: z.array(providerPayment) });

const refundInput = z.object({
  amountPaise: z
    .number({ error: 'Refund amount must be a number of paise' })
    .int('Refund amount must be a whole number of paise')
    .min(100, 'Refund amount must be at least ₹1.00'),
  receipt: receiptInput,
});

const providerRefund = z.object({
  id: z.string(),
  payment_id: z.string(),
  amount: z.coerce.number().int(),
  currency: z.string(),
  receipt: receiptOrNull,
  status: z.enum(['pending', 'processed', 'failed']),
  created_at: z.number().int(),
}) satisfies z.ZodType<ProviderRefund, unknown>;

const refundCollection = z.object({ items: z.array(providerRefund) });
