import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Pool } from '@shop/shared/db/pool';
import type { Logger } from '@shop/shared/observability/logger';
import { paymentSignature } from './signatures.ts';
import { checkoutScript } from './checkout-script.ts';
import { SandboxError } from './razorpay-error.ts';
import {
  razorpayId,
  SandboxLedger,
  type Payer,
  type SandboxOrder,
  type SandboxPayment,
  type SandboxRefund,
} from './sandbox-ledger.ts';
import {
  createWebhookSender,
  httpWebhookTransport,
  webhookBody,
  type WebhookDelivery,
  type WebhookSender,
} from './webhooks.ts';

export interface RazorpaySandboxOptions {
  keyId: string;
  keySecret: string;
  /** Where the orders and payments are kept (schema `razorpay_sandbox`, migrated like the rest). */
  pool: Pool;
  /** Secret that signs webhooks; required with `webhookUrl` or `webhookReceiver`. */
  webhookSecret?: string | undefined;
  /** Where `payment.captured`, `order.paid` and `payment.failed` are POSTed; unset = no webhooks. */
  webhookUrl?: string | undefined;
  /**
   * Instead of `webhookUrl`, when the shop runs in this process: each signed delivery is handed to it
   * in process, with the same retries. It resolves once the shop has taken the event and rejects when it
   * refused it (what a non-2xx answer is over HTTP).
   */
  webhookReceiver?: ((delivery: WebhookDelivery) => Promise<void>) | undefined;
  /** Public path the router is mounted at (e.g. '/razorpay-sandbox'); checkout.js falls back to it. */
  basePath: string;
  now?: () => Date;
  logger?: Logger | undefined;
  /** Webhook delivery tuning (tries per event, first retry delay in ms; doubling). */
  webhookRetry?: { attempts?: number; firstRetryDelayMs?: number };
  /**
   * false while the host shuts down: the dialog's Pay is then refused (503), since the shop can neither
   * verify the payment nor take its webhook (both answer 503) and the order would show only after the
   * expiry sweep. The API (orders, payments) is still served: a create-order in flight calls it.
   */
  acceptsPayments?: () => boolean;
}

/** What the dialog shows when Pay is refused because the shop is shutting down. */
export const SHOP_STOPPING_MESSAGE = 'The shop is restarting: no payment was taken. Please try again in a moment.';

export interface RazorpaySandbox {
  router: Router;
  /** The orders and refunds API for a caller in this process (the shop's provider), without HTTP. */
  api: SandboxApi;
  /** Stops webhook deliveries still pending (retries included). */
  close(): Promise<void>;
}

/** What Razorpay answers for a list: `{ entity: 'collection', count, items }`. */
export interface SandboxCollection<T> {
  entity: 'collection';
  count: number;
  items: T[];
}

/**
 * The sandbox's API (the part the `razorpay` SDK calls) for a caller in the same process: the bodies its
 * HTTP routes take, the same checks, the same answers. Every refusal is a SandboxError carrying the status
 * and error body its route would answer, failures of its own included (500). No key is asked for: the
 * caller is the process that configured the sandbox's keys.
 */
export interface SandboxApi {
  /** POST /v1/orders */
  createOrder(body: unknown): Promise<SandboxOrder>;
  /** GET /v1/orders/:id */
  order(orderId: string): Promise<SandboxOrder>;
  /** GET /v1/orders/:id/payments */
  paymentsOf(orderId: string): Promise<SandboxCollection<SandboxPayment>>;
  /** GET /v1/payments/:id */
  payment(paymentId: string): Promise<SandboxPayment>;
  /** POST /v1/payments/:id/refund */
  refund(paymentId: string, body: unknown): Promise<SandboxRefund>;
  /** GET /v1/payments/:id/refunds */
  refundsOf(paymentId: string): Promise<SandboxCollection<SandboxRefund>>;
}

/** What the pay endpoint answers: the fields Razorpay's checkout hands to `options.handler`. */
export interface SandboxPaymentResponse {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/** Razorpay's receipt and notes fields, with its own messages (orders and refunds take both). */
const receiptField = z
  .string({ error: 'The receipt must be a string.' })
  .max(40, 'The receipt may not be greater than 40 characters.')
  .optional();
const notesField = z
  .record(z.string(), z.union([z.string().max(256), z.number()]), { error: 'The notes must be an object.' })
  .refine((n) => Object.keys(n).length <= 15, 'The notes may not have more than 15 items.')
  .optional();

/** Razorpay's amount rule, with its messages: whole paise, at least ₹1. */
function checkAmount(v: unknown, ctx: z.RefinementCtx): void {
  if (typeof v !== 'number' || !Number.isInteger(v))
    ctx.addIssue({ code: 'custom', message: 'The amount must be an integer.' });
  else if (v < 100) ctx.addIssue({ code: 'custom', message: 'The amount must be atleast INR 1.00' });
}

const createOrderBody = z.object({
  amount: z.unknown().superRefine((v, ctx) => {
    if (v === undefined || v === null || v === '')
      ctx.addIssue({ code: 'custom', message: 'The amount field is required.' });
    else checkAmount(v, ctx);
  }),
  currency: z.literal('INR', { error: 'Currency is not supported' }).default('INR'),
  receipt: receiptField,
  notes: notesField,
});

const refundBody = z.object({
  amount: z
    .unknown()
    .superRefine((v, ctx) => {
      if (v !== undefined) checkAmount(v, ctx);
    })
    .transform((v) => v as number | undefined)
    .optional(),
  speed: z.enum(['normal', 'optimum'], { error: 'The selected speed is invalid.' }).optional(),
  receipt: receiptField,
  notes: notesField,
});

const payerBody = z.object({
  key_id: z.string().optional(),
  email: z.string().max(100).optional(),
  contact: z.string().max(20).optional(),
});

/**
 * A Razorpay-compatible sandbox as an express router: the orders and refunds API subset the SDK uses (HTTP
 * Basic auth with the key pair), `GET /v1/checkout.js`, the dialog's pay/fail endpoints, and signed webhooks to the
 * shop. Mount it at `basePath` and point the SDK at `<origin><basePath>`.
 */
export function createRazorpaySandbox(opts: RazorpaySandboxOptions): RazorpaySandbox {
  if (!opts.keyId || !opts.keySecret) throw new Error('Razorpay sandbox needs a key id and a key secret');
  if ((opts.webhookUrl || opts.webhookReceiver) && !opts.webhookSecret)
    throw new Error('Razorpay sandbox: webhookSecret is required with webhookUrl or webhookReceiver');
  if (opts.webhookUrl && opts.webhookReceiver)
    throw new Error('Razorpay sandbox: webhooks go to webhookUrl or to webhookReceiver, not both');
  const basePath = opts.basePath.replace(/\/+$/, '');
  if (basePath && !basePath.startsWith('/'))
    throw new Error(`Razorpay sandbox: basePath must start with '/': ${opts.basePath}`);

  const now = opts.now ?? (() => new Date());
  const ledger = new SandboxLedger(opts.pool, now);
  const accountId = razorpayId('acc_');
  const script = checkoutScript(basePath);
  const webhooks = webhookSender(opts);
  const api = sandboxApi(ledger, opts.logger);

  const router = Router();
  router.use(express.json({ limit: '100kb' }));

  router.get('/v1/checkout.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'no-cache').send(script);
  });

  // The dialog's endpoints stand for the shopper finishing Razorpay's checkout: no API key, any origin.
  router.use('/v1/checkout', allowAnyOrigin);
  router.post('/v1/checkout/orders/:id/pay', async (req, res) => {
    const payer = checkedPayer(req.body);
    if (opts.acceptsPayments?.() === false) throw new SandboxError(503, SHOP_STOPPING_MESSAGE);
    const { order, payment } = await ledger.pay(req.params.id as string, payer);
    const answer: SandboxPaymentResponse = {
      razorpay_order_id: order.id,
      razorpay_payment_id: payment.id,
      razorpay_signature: paymentSignature(order.id, payment.id, opts.keySecret),
    };
    res.json(answer);
    webhooks?.send([
      webhookBody({ event: 'payment.captured', accountId, payment, now: now() }),
      webhookBody({ event: 'order.paid', accountId, payment, order, now: now() }),
    ]);
  });
  router.post('/v1/checkout/orders/:id/fail', async (req, res) => {
    const payer = checkedPayer(req.body);
    const { payment, failure } = await ledger.fail(req.params.id as string, payer);
    res.json(failure);
    webhooks?.send([webhookBody({ event: 'payment.failed', accountId, payment, now: now() })]);
  });

  router.use('/v1', basicAuth(opts.keyId, opts.keySecret));
  router.post('/v1/orders', async (req, res) => {
    res.json(await api.createOrder(req.body ?? {}));
  });
  router.get('/v1/orders/:id', async (req, res) => {
    res.json(await api.order(req.params.id as string));
  });
  router.get('/v1/orders/:id/payments', async (req, res) => {
    res.json(await api.paymentsOf(req.params.id as string));
  });
  router.get('/v1/payments/:id', async (req, res) => {
    res.json(await api.payment(req.params.id as string));
  });
  router.post('/v1/payments/:id/refund', async (req, res) => {
    res.json(await api.refund(req.params.id as string, req.body ?? {}));
  });
  router.get('/v1/payments/:id/refunds', async (req, res) => {
    res.json(await api.refundsOf(req.params.id as string));
  });

  router.use((_req, res) => {
    res.status(404).json(new SandboxError(404, 'The requested URL was not found on the server.').toBody());
  });
  router.use(razorpayErrors(opts.logger));

  function checkedPayer(body: unknown): Payer {
    const parsed = payerBody.safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SandboxError(400, `The ${issue.path.join('.')} field is invalid.`, issue.path.join('.'));
    }
    const payer = parsed.data;
    if (payer.key_id !== undefined && payer.key_id !== opts.keyId) {
      throw new SandboxError(400, 'The api key provided is invalid', 'key_id');
    }
    return payer;
  }

  return { router, api, close: async () => webhooks?.close() };
}

function webhookSender(opts: RazorpaySandboxOptions): WebhookSender | undefined {
  if (!opts.webhookSecret) return undefined;
  const common = { secret: opts.webhookSecret, logger: opts.logger, ...opts.webhookRetry };
  if (opts.webhookReceiver) {
    const receive = opts.webhookReceiver;
    return createWebhookSender({ ...common, target: 'in-process', transport: (delivery) => receive(delivery) });
  }
  if (opts.webhookUrl) {
    return createWebhookSender({
      ...common,
      target: opts.webhookUrl,
      transport: httpWebhookTransport(opts.webhookUrl),
    });
  }
  return undefined;
}

function sandboxApi(ledger: SandboxLedger, logger: Logger | undefined): SandboxApi {
  // Every rejection becomes the SandboxError the HTTP route would answer, so both callers see the same.
  const answer = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (err) {
      throw toSandboxError(err, logger);
    }
  };
  const collection = <T>(items: T[]): SandboxCollection<T> => ({ entity: 'collection', count: items.length, items });
  return {
    createOrder: (body) =>
      answer(() => {
        const { amount, receipt, notes } = parsedBody(createOrderBody, body);
        return ledger.createOrder({ amount: amount as number, receipt, notes });
      }),
    order: (orderId) => answer(() => ledger.order(orderId)),
    paymentsOf: (orderId) => answer(async () => collection(await ledger.paymentsOf(orderId))),
    payment: (paymentId) => answer(() => ledger.payment(paymentId)),
    refund: (paymentId, body) => answer(() => ledger.refund(paymentId, parsedBody(refundBody, body))),
    refundsOf: (paymentId) => answer(async () => collection(await ledger.refundsOf(paymentId))),
  };
}

/** The body as `schema` reads it, or Razorpay's 400 naming the first field it refuses. */
function parsedBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new SandboxError(400, issue.message, issue.path.join('.') || undefined);
}

const allowAnyOrigin: RequestHandler = (req, res, next) => {
  res.set({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
  });
  if (req.method === 'OPTIONS') return void res.sendStatus(204);
  next();
};

function basicAuth(keyId: string, keySecret: string): RequestHandler {
  // Comparing digests keeps the comparison timing-safe whatever the lengths.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expected = digest(`${keyId}:${keySecret}`);
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
    if (given && timingSafeEqual(digest(given), expected)) return next();
    res.status(401).json(new SandboxError(401, 'Authentication failed').toBody());
  };
}

function razorpayErrors(logger: Logger | undefined): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return;
    const refusal = toSandboxError(err, logger);
    res.status(refusal.status).json(refusal.toBody());
  };
}

/** What the sandbox answers for an error: its own refusals as they are, anything else as Razorpay's 500. */
function toSandboxError(err: unknown, logger: Logger | undefined): SandboxError {
  if (err instanceof SandboxError) return err;
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === 'entity.parse.failed') return new SandboxError(400, 'The request body is not valid JSON.');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new SandboxError(e.status, 'The request could not be processed.');
  }
  logger?.error({ err }, 'razorpay sandbox failed');
  return new SandboxError(
    500,
    'We are facing some trouble completing your request at the moment. Please try again shortly.',
  );
}
