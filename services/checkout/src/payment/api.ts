import type { Request } from 'express';
import { z } from 'zod';
import { NotFoundError, UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import { buyerKeyOf, clientAddressKeyOf, isFirstVisit } from '@shop/shared/auth/guest-identity';
import { EMAIL_MESSAGE, isEmailAddress } from '@shop/shared/contracts/email-address';
import { INDIAN_PINCODE_MESSAGE, isIndianPincode } from '@shop/shared/contracts/indian-pincode';
import { rateLimit } from '@shop/shared/http/rate-limit';
import { rupeesInput } from '@shop/shared/http/amount-input';
import { rupeesToPaise } from '@shop/shared/money/money';
import { indianPhoneInput } from '@shop/shared/http/phone-input';
import { routeOf } from '@shop/shared/http/route-table';
import { parseInput } from '@shop/shared/http/validation';
import type { Logger } from '@shop/shared/observability/logger';
import type pg from 'pg';
import type { ReserveLine } from '@shop/shared/contracts/inventory';
import { verifyWebhookSignature } from '@shop/razorpay-sandbox/signatures';
import { PaymentAfterExpiryError, PaymentRefundDueError } from './decider.ts';
import type { CheckoutRequest, Payments } from './payments.ts';
import { checkCheckoutSize, checkUnitsPerProduct } from '../buyer-limits/purchase-limits.ts';
import { listRefunds } from '../refunds/read-models/refunds-projection.ts';
import { WebhookEvents } from './webhook-events.ts';

const REQUIRED = 'Please fill all required fields';
const text = (max: number) => z.string().trim().max(max);

/** The order create payload (seed 000 section 3); client totals are accepted and ignored. */
export const OrderData = z.object({
  address: text(1000),
  pincode: z.union([text(12), z.number().transform(String)]),
  customerName: text(200),
  customerPhone: indianPhoneInput('Phone', { blankAllowed: true }), // blank: 'Please fill all required fields' below
  customerEmail: text(200),
  items: z
    .array(
      z.object({
        productId: z.union([z.string().trim().min(1).max(64), z.number().transform(String)]),
        // at most MAX_UNITS_PER_PRODUCT of one product per order (checkUnitsPerProduct)
        quantity: z.number().int('Quantity must be a whole number').min(1, 'Quantity must be at least 1'),
        size: text(20)
          .nullable()
          .optional()
          .transform((v) => v || null),
        color: text(100)
          .nullable()
          .optional()
          .transform((v) => v || null),
      }),
    )
    .max(50, 'At most 50 lines per order'),
  couponCode: text(50)
    .nullable()
    .optional()
    .transform((v) => (v ? v.toUpperCase() : null)),
  totalAmount: z.number().optional(),
  discountAmount: z.number().optional(),
  shippingCharge: z.number().optional(),
  deliveryCharge: z.number().optional(),
});
export const CreateOrderBody = z.object({
  amount: rupeesInput('Amount').optional(),
  currency: z.literal('INR', 'Only INR payments are supported').optional().default('INR'),
  receipt: text(40).min(1).optional(),
  orderData: OrderData.optional(),
});
export const VerifyBody = z.object({
  razorpay_order_id: z.string().trim().min(1).max(100),
  razorpay_payment_id: z.string().trim().min(1).max(100),
  razorpay_signature: z.string().trim().min(1).max(200),
  orderData: z.unknown().optional(),
});
/** Names the buyer's own checkout: cancel and dialog-opened. */
export const CheckoutCallBody = z.object({
  razorpay_order_id: z.string().trim().min(1).max(100),
});

/**
 * What the webhook reads of a provider event, as documented (the handler checks the signature over the raw
 * body, then reads these fields as they come).
 */
const WebhookBodyShown = z.looseObject({
  event: z.string().optional(),
  payload: z
    .looseObject({
      payment: z.looseObject({ entity: z.looseObject({}).optional() }).optional(),
      order: z.looseObject({ entity: z.looseObject({}).optional() }).optional(),
    })
    .optional(),
});

/** What the webhook reads of Razorpay's event body. */
interface WebhookBody {
  event?: string;
  payload?: {
    payment?: { entity?: { id?: string; order_id?: string; error_description?: string } };
    order?: { entity?: { id?: string } };
  };
}

/** What the payment routes use. */
export interface PaymentPorts {
  payments: Payments;
  pool: pg.Pool;
  webhookSecret: string | null;
  logger: Logger;
  limits: {
    /** Most units of one product per order, all sizes together (MAX_UNITS_PER_PRODUCT). */
    maxUnitsPerProduct: number;
    /** Most units one unpaid checkout holds (MAX_UNITS_PER_CHECKOUT). */
    maxUnitsPerCheckout: number;
    /** Most distinct products one unpaid checkout holds (MAX_PRODUCTS_PER_CHECKOUT). */
    maxProductsPerCheckout: number;
    /** Backstop: payment calls a minute from one client address (PAYMENT_CALLS_PER_ADDRESS_PER_MINUTE). */
    paymentCallsPerAddressPerMinute: number;
  };
  /**
   * For a payment recorded without an order number (the order service could give none, or recorded before
   * numbers were kept): the order number once the buyer's orders list shows the order (null on timeout).
   */
  waitForOrder: (razorpayOrderId: string, paymentVersion: number) => Promise<string | null>;
  /** The token of the order's confirmation link (contracts/order-confirmation), for the buyer's verify answer. */
  orderToken: (razorpayOrderId: string) => string;
}

const route = routeOf<PaymentPorts>('checkout');

/**
 * Per buyer, keyed on what the caller cannot forge: the account, else the browser's signed guest identity
 * (never a body field such as the e-mail), so a crowd behind one carrier NAT is a crowd of buyers. A caller
 * can drop the cookie for a new identity: the per-address budget, far larger, is the backstop against that.
 * Counted in Redis when REDIS_URL is set: several checkout processes share one budget per buyer. One pair for
 * all four payment calls (the mount builds it once).
 */
export const paymentLimitTerms = (limits: Pick<PaymentPorts['limits'], 'paymentCallsPerAddressPerMinute'>) => [
  {
    name: 'payment-address',
    windowMs: 60_000,
    max: limits.paymentCallsPerAddressPerMinute,
    message: 'Too many payment attempts from your network, please try again in a minute',
    key: clientAddressKeyOf,
  },
  {
    name: 'payment',
    windowMs: 60_000,
    max: 30,
    message: 'Too many payment attempts, please try again in a minute',
    key: buyerKeyOf,
  },
];
const paymentLimits = (ports: PaymentPorts) => paymentLimitTerms(ports.limits).map((terms) => rateLimit(terms));

/** The seeds' required-field rules and the per-order limits of a cart (400 naming the first broken). */
export function checkCart(limits: PaymentPorts['limits'], data: z.infer<typeof OrderData>): void {
  if (data.items.length === 0) throw new ValidationError('Cart is empty');
  if (!data.customerName || !data.customerEmail || !data.customerPhone || !data.address || !data.pincode)
    throw new ValidationError(REQUIRED);
  if (!isEmailAddress(data.customerEmail)) throw new ValidationError(EMAIL_MESSAGE);
  if (!isIndianPincode(data.pincode)) throw new ValidationError(INDIAN_PINCODE_MESSAGE);
  checkUnitsPerProduct(data.items, limits.maxUnitsPerProduct);
  checkCheckoutSize(data.items, { maxUnits: limits.maxUnitsPerCheckout, maxProducts: limits.maxProductsPerCheckout });
}

/** The stock a cart asks for, line by line. */
const linesOf = (data: z.infer<typeof OrderData>): ReserveLine[] =>
  data.items.map((i) => ({ productId: i.productId, size: i.size, color: i.color, quantity: i.quantity }));

/**
 * The stock lines of a create-order body when, for a first-visit guest (no account, no guest cookie: no earlier
 * checkout to replace), the route's next answer after its rate limits is the stock's: the body is valid, it
 * carries a cart that passes checkCart, and no coupon is named (a coupon is admitted before stock). null when
 * the route would answer anything else first.
 */
export function stockDecidedLines(limits: PaymentPorts['limits'], body: unknown): ReserveLine[] | null {
  const parsed = CreateOrderBody.safeParse(body);
  const data = parsed.success ? parsed.data.orderData : undefined;
  if (!data || data.couponCode) return null;
  try {
    checkCart(limits, data);
  } catch {
    return null;
  }
  return linesOf(data);
}

/** The order create payload as a checkout request (the seeds' required-field rules). */
const cartOf = (
  ports: PaymentPorts,
  data: z.infer<typeof OrderData>,
  req: Request,
  receipt: string,
): CheckoutRequest => {
  checkCart(ports.limits, data);
  return {
    lines: linesOf(data),
    customer: {
      userId: req.user?.id ?? null,
      name: data.customerName,
      email: data.customerEmail,
      phone: data.customerPhone,
    },
    address: data.address,
    pincode: data.pincode,
    couponCode: data.couponCode,
    receipt,
    buyerKey: buyerKeyOf(req),
    clientAddressKey: clientAddressKeyOf(req),
    firstVisit: isFirstVisit(req),
  };
};

async function processWebhook(ports: PaymentPorts, body: WebhookBody): Promise<string> {
  const { payments } = ports;
  const payment = body.payload?.payment?.entity;
  const orderId = payment?.order_id ?? body.payload?.order?.entity?.id;
  if (!orderId) return 'ignored';
  // Each command reads the payment order's stream once: one it does not know is refused (not found), or for a
  // failure decides nothing.
  if ((body.event === 'order.paid' || body.event === 'payment.captured') && payment?.id) {
    try {
      await payments.recordPaid(orderId, payment.id, 'webhook');
      return 'recorded';
    } catch (err) {
      if (err instanceof NotFoundError) return 'ignored';
      if (!(err instanceof PaymentAfterExpiryError) && !(err instanceof PaymentRefundDueError)) throw err;
      // Recorded as RefundDue; the refund is issued after the commit (refunds.ts).
      ports.logger.warn({ orderId, paymentId: payment.id }, 'payment captured for an order it cannot make: refund due');
      return 'refund_due';
    }
  }
  if (body.event === 'payment.failed') {
    // As a cancel: the holds go back at once (a retry in the same dialog that then succeeds still places the
    // order if the stock is there, else it is refunded).
    if ((await payments.load(orderId)).state.status === 'none') return 'ignored';
    await payments.providerFailure(orderId, payment?.error_description ?? 'Payment failed');
    return 'recorded';
  }
  return 'ignored';
}

/** One webhook delivery as it arrives: the raw body the signature covers and the two Razorpay headers. */
export interface WebhookInput {
  raw: Buffer | string | undefined;
  /** X-Razorpay-Signature. */
  signature: string | string[] | undefined;
  /** X-Razorpay-Event-Id (a delivery without one is processed, not de-duplicated). */
  eventId: string | string[] | null | undefined;
  /** The body already parsed from `raw` (express parses it over HTTP); parsed here when absent. */
  body?: unknown;
}

/** What the webhook answers a delivery it took (a refusal is thrown as the AppError the route answers with). */
export interface WebhookAnswer {
  status: number;
  body: { status: string };
}

/**
 * The one definition of taking a Razorpay webhook, for the HTTP route and for the sandbox's in-process
 * deliveries alike: the signature check over the raw body, then one atomic webhook_events claim per event id
 * (of concurrent deliveries exactly one processes the event; a redelivery of a processed one is 'duplicate'),
 * the processing, and the claim completed with its outcome, or released when processing failed so the
 * provider's redelivery processes the event. Refusals throw: 503 not configured or still being processed by
 * another delivery, 400 a bad signature (or, parsed here, a body that is not JSON).
 */
export async function receiveWebhook(ports: PaymentPorts, delivery: WebhookInput): Promise<WebhookAnswer> {
  if (!ports.webhookSecret) throw new UnavailableError('Payment webhooks are not configured (RAZORPAY_WEBHOOK_SECRET)');
  const { raw, signature } = delivery;
  if (!raw || typeof signature !== 'string' || !verifyWebhookSignature(raw, signature, ports.webhookSecret)) {
    throw new ValidationError('Invalid webhook signature');
  }
  const eventId = typeof delivery.eventId === 'string' ? delivery.eventId : null;
  const body = (delivery.body !== undefined ? delivery.body : parseWebhookBody(raw)) as WebhookBody;
  const webhookEvents = new WebhookEvents(ports.pool);
  // One atomic claim per event id: of concurrent deliveries exactly one processes the event.
  if (eventId && (await webhookEvents.claim(eventId, body.event ?? 'unknown')) === 'duplicate')
    return { status: 200, body: { status: 'duplicate' } };
  let outcome: string;
  try {
    outcome = await processWebhook(ports, body);
  } catch (err) {
    // Not lost: the claim is given up, so the provider's redelivery processes the event.
    if (eventId) await webhookEvents.release(eventId).catch(() => undefined);
    throw err;
  }
  if (eventId) await webhookEvents.complete(eventId, outcome);
  return { status: 200, body: { status: outcome } };
}

/** A raw body that is not JSON is refused as express's JSON parser refuses it over HTTP (400). */
function parseWebhookBody(raw: Buffer | string): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as unknown;
  } catch {
    throw new ValidationError('Invalid webhook body');
  }
}

/** /api/payment/*: create-order (reserve + price + provider order), verify, cancel, dialog-opened, webhook. */
export const PAYMENT_ROUTES = [
  route({
    method: 'post',
    path: '/api/payment/create-order',
    auth: 'public',
    summary: 'Open a payment: hold stock, price the cart and open a provider order (token optional)',
    middleware: paymentLimits,
    body: CreateOrderBody,
    responses: {
      201: '{id, amount (paise), currency, receipt, key_id}',
      400: 'Bad input; cart empty; required fields missing; too many units of one product, or in all (MAX_UNITS_PER_CHECKOUT), or too many products (MAX_PRODUCTS_PER_CHECKOUT)',
      409: '{title, message}: stock or a coupon refuses',
      429: 'Too many payment attempts, or too many live checkouts (per buyer, or per client address)',
      503: 'The payment provider or the inventory is unavailable',
    },
    handler:
      (ports) =>
      async (req, res, { body }) => {
        const { payments } = ports;
        const receipt = body.receipt ?? `rcpt_${Date.now()}`;
        let order;
        if (body.orderData) {
          order = await payments.createOrder(cartOf(ports, body.orderData, req, receipt));
        } else {
          // The documented fields only: the cart comes with verify and is priced there.
          if (body.amount === undefined) throw new ValidationError('amount is required (or send orderData)');
          const amountPaise = rupeesToPaise(body.amount);
          if (amountPaise < 100) throw new ValidationError('Order total must be at least ₹1.00');
          order = await payments.openOrder({
            amountPaise,
            receipt,
            userId: req.user?.id ?? null,
            buyerKey: buyerKeyOf(req),
          });
        }
        res.status(201).json({
          id: order.id,
          amount: order.amount,
          currency: order.currency,
          receipt: order.receipt,
          key_id: order.key_id,
        });
      },
  }),
  route({
    method: 'post',
    path: '/api/payment/verify',
    auth: 'public',
    // Not `owned`: guests pay too; what authorises it is the provider's signature, not an account.
    summary: 'Verify a payment signature and place the order',
    middleware: paymentLimits,
    body: VerifyBody,
    bodyMessage: 'Payment verification failed',
    responses: {
      200: '{success, message, orderNumber, orderToken}: the payment is recorded with the number its order is placed under',
      202: '{success, message, orderNumber: null, orderToken}: paid, the order shows in My Orders shortly (the order service could give no number)',
      400: 'Payment verification failed',
      409: 'The payment conflicts with its order (expired, or another cart)',
      429: 'Too many payment attempts',
      503: 'Unavailable, please retry',
    },
    handler:
      (ports) =>
      async (req, res, { body }) => {
        const cart = body.orderData === undefined ? undefined : parseInput(OrderData, body.orderData);
        const recorded = await ports.payments.verify(
          { orderId: body.razorpay_order_id, paymentId: body.razorpay_payment_id, signature: body.razorpay_signature },
          cart ? cartOf(ports, cart, req, `rcpt_${Date.now()}`) : undefined,
        );
        // The order number is recorded with the payment: the placement places the order under it, whenever it
        // runs (the confirmation page shows it once placed). Only a payment recorded without one (the order
        // service unreachable) waits for the placement to number it.
        const orderNumber =
          recorded.orderNumber ?? (await ports.waitForOrder(body.razorpay_order_id, recorded.version));
        // The confirmation link's token goes only to this caller: past payments.verify, the one who holds the payment's
        // signature (which the provider hands to the paying browser alone).
        const orderToken = ports.orderToken(body.razorpay_order_id);
        // The payment is recorded either way; without a number yet, say so rather than fail: the order reaches
        // the confirmation page and My Orders a moment later (words fit for guests too).
        if (!orderNumber)
          return void res.status(202).json({
            success: true,
            message: 'Payment successful! Your order is being placed and will appear in a moment.',
            orderNumber: null,
            orderToken,
          });
        res.json({ success: true, message: 'Payment verified successfully', orderNumber, orderToken });
      },
  }),
  // The buyer dismissed the payment dialog, or their payment failed: the checkout ends now (its stock, coupon
  // use and live-checkout place go back), unless the provider says it was paid meanwhile (then it is the order).
  route({
    method: 'post',
    path: '/api/payment/cancel',
    auth: 'public',
    // Not `owned`: guests cancel too; what authorises it is the buyer key (account or signed guest cookie)
    // recorded on the payment order when it was created.
    summary:
      'Cancel your unpaid checkout (payment dialog dismissed or payment failed): its stock, coupon use and checkout place go back at once; a payment that completed meanwhile becomes the order',
    middleware: paymentLimits,
    body: CheckoutCallBody,
    responses: {
      200: '{razorpay_order_id, status: cancelled | paid}',
      400: 'Bad input',
      403: 'This checkout belongs to another buyer',
      404: 'Payment order not found',
      429: 'Too many payment attempts',
      503: 'The payment provider is unavailable, please retry',
    },
    handler:
      (ports) =>
      async (req, res, { body }) => {
        const status = await ports.payments.cancel(body.razorpay_order_id, buyerKeyOf(req));
        res.json({ razorpay_order_id: body.razorpay_order_id, status });
      },
  }),
  // Right before the payment dialog opens: the hold lasts the full reservation time from now on.
  route({
    method: 'post',
    path: '/api/payment/dialog-opened',
    auth: 'public',
    summary:
      'Your payment dialog is opening: the checkout holds its stock for the full reservation time (RESERVATION_TTL_SECONDS) instead of HOLD_BEFORE_DIALOG_SECONDS',
    middleware: paymentLimits,
    body: CheckoutCallBody,
    responses: {
      200: '{razorpay_order_id, expiresAt}',
      400: 'Bad input',
      403: 'This checkout belongs to another buyer',
      404: 'Payment order not found',
      429: 'Too many payment attempts',
    },
    handler:
      (ports) =>
      async (req, res, { body }) => {
        const { expiresAt } = await ports.payments.dialogOpened(body.razorpay_order_id, buyerKeyOf(req));
        res.json({ razorpay_order_id: body.razorpay_order_id, expiresAt });
      },
  }),
  route({
    method: 'post',
    path: '/api/payment/webhook',
    auth: 'signed',
    summary: 'Razorpay webhook, signed with RAZORPAY_WEBHOOK_SECRET over the raw body',
    documented: { body: WebhookBodyShown },
    responses: {
      200: '{status: recorded | ignored | duplicate | refund_due}',
      400: 'Invalid webhook signature',
      503: 'Webhooks are not configured, or this event is still being processed by another delivery',
    },
    handler: (ports) => async (req, res) => {
      const answer = await receiveWebhook(ports, {
        raw: req.rawBody,
        signature: req.headers['x-razorpay-signature'],
        eventId: req.headers['x-razorpay-event-id'],
        body: req.body as unknown,
      });
      res.status(answer.status).json(answer.body);
    },
  }),
  route({
    method: 'get',
    path: '/api/payment/admin/refunds',
    auth: 'admin',
    summary: 'Refunds of payments that could not become an order, newest first (amounts in rupees)',
    responses: {
      200: '[{razorpayPaymentId, razorpayOrderId, customerEmail, amount, reason, detail, status, refundId, dueAt, refundedAt, attempts, lastError}]',
      401: 'Not signed in',
      403: 'Not an admin',
    },
    handler: (ports) => async (_req, res) => {
      res.json(await listRefunds(ports.pool));
    },
  }),
];
