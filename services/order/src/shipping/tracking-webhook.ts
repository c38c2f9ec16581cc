import type pg from 'pg';
import { z } from 'zod';
import { AppError, httpStatusOf, NotFoundError, UnauthorizedError, ValidationError } from '@shop/shared/errors/errors';
import { routeOf } from '@shop/shared/http/route-table';
import type { Logger } from '@shop/shared/observability/logger';
import { parseShiprocketTimestamp, verifyWebhookToken, WEBHOOK_TOKEN_HEADER } from '@shop/shiprocket-sandbox/tracking';
import { ORDER_NUMBER_FORMAT, type DeliveryStatus, type TrackingSource } from '../order/events.ts';
import type { Orders } from '../orders.ts';

/** What the tracking webhook uses. */
export interface TrackingPorts {
  orders: Orders;
  pool: pg.Pool;
  /** SHIPROCKET_WEBHOOK_TOKEN (derived for the sandbox); null = none configured: every delivery is refused. */
  webhookToken: string | null;
}

/**
 * The delivery status a Shiprocket status means; null for every other status (picked up, in transit, a
 * return to origin, lost, undelivered: shown as the shipping status, the admin acts on them).
 */
export function deliveryStatusOfShipment(shippingStatus: string): DeliveryStatus | null {
  switch (shippingStatus.trim().toUpperCase()) {
    case 'OUT FOR DELIVERY':
      return 'Out for Delivery';
    case 'DELIVERED':
      return 'Delivered';
    default:
      return null;
  }
}

/**
 * The one way a tracking update from Shiprocket is recorded, for the webhook and the tracking sweep alike: the
 * status in Shiprocket's upper-case words, the delivery status it means, decided on the order's stream in log
 * order with the admin's changes, once per (AWB, status, time) whichever way it came. `recorded` is false for one
 * recorded before. NotFoundError: no such order, or not this order's AWB.
 */
export async function recordTracking(
  orders: Orders,
  orderNumber: string,
  update: { awb: string; shippingStatus: string; updatedAt: Date; source: TrackingSource },
): Promise<{ recorded: boolean }> {
  const shippingStatus = update.shippingStatus.trim().toUpperCase();
  const { recorded } = await orders.recordTrackingUpdate(orderNumber, {
    ...update,
    shippingStatus,
    deliveryStatus: deliveryStatusOfShipment(shippingStatus),
  });
  return { recorded };
}

/** What the webhook reads of Shiprocket's tracking body (the rest is kept by Shiprocket, not read here). */
const TrackingBody = z.looseObject({
  awb: z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1).max(60)),
  current_status: z.string().trim().min(1).max(100),
  current_timestamp: z.string().trim().min(1).max(40),
  order_id: z.union([z.string(), z.number()]).transform(String).optional(),
});

/** One delivery as it arrives: the raw body and the `x-api-key` header. */
export interface TrackingDeliveryInput {
  raw: Buffer | string | undefined;
  apiKey: string | string[] | undefined;
  /** The body already parsed from `raw` (express parses it over HTTP); parsed here when absent. */
  body?: unknown;
}

export type TrackingOutcome = 'recorded' | 'duplicate' | 'ignored';

/**
 * The one definition of taking a Shiprocket tracking webhook, for the HTTP route and the sandbox's in-process
 * deliveries alike: the `x-api-key` token (timing-safe), the body, the order (by its number, Shiprocket's
 * order_id, else by AWB), and the update decided on the order's stream, in log order with the admin's
 * changes. De-duplicated there by (AWB, status, time): a redelivery is 'duplicate'. An AWB the shop has no
 * order for is 'ignored' (answered 200: Shiprocket takes only a 200).
 */
export async function receiveTrackingWebhook(
  ports: TrackingPorts,
  delivery: TrackingDeliveryInput,
): Promise<TrackingOutcome> {
  if (!ports.webhookToken || !verifyWebhookToken(delivery.apiKey, ports.webhookToken))
    throw new UnauthorizedError('Invalid webhook token');
  let body = delivery.body;
  if (body === undefined) {
    try {
      const raw = delivery.raw ?? '';
      body = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as unknown;
    } catch {
      throw new ValidationError('Invalid webhook body');
    }
  }
  const parsed = TrackingBody.safeParse(body);
  if (!parsed.success) throw new ValidationError(`Invalid webhook body: ${parsed.error.issues[0]!.path.join('.')}`);
  const { awb, current_status: shippingStatus, current_timestamp, order_id } = parsed.data;
  const updatedAt = parseShiprocketTimestamp(current_timestamp);
  if (!updatedAt) throw new ValidationError('Invalid webhook body: current_timestamp');
  const orderNumber =
    order_id && ORDER_NUMBER_FORMAT.test(order_id) ? order_id : await findOrderNumberByAwb(ports.pool, awb);
  if (!orderNumber) return 'ignored';
  try {
    const r = await recordTracking(ports.orders, orderNumber, { awb, shippingStatus, updatedAt, source: 'webhook' });
    return r.recorded ? 'recorded' : 'duplicate';
  } catch (err) {
    // No such order, or not this order's AWB: nothing of ours to update.
    if (err instanceof NotFoundError) return 'ignored';
    throw err;
  }
}

async function findOrderNumberByAwb(db: pg.Pool, awb: string): Promise<string | null> {
  const { rows } = await db.query<{ order_number: string }>(
    'SELECT order_number FROM orders.orders WHERE shiprocket_awb = $1',
    [awb],
  );
  return rows[0]?.order_number ?? null;
}

/**
 * Takes the sandbox's tracking webhooks in process (the embedded shop): each goes through
 * receiveTrackingWebhook, as the HTTP route's do. A refusal rejects with the status the route would answer,
 * so the sandbox retries it as it retries a non-2xx answer.
 */
export function inProcessTrackingReceiver(ports: TrackingPorts, logger: Logger) {
  return async ({ raw, apiKey }: { raw: string; apiKey: string }): Promise<void> => {
    try {
      await receiveTrackingWebhook(ports, { raw, apiKey });
    } catch (err) {
      if (err instanceof AppError)
        throw new Error(`tracking webhook not taken (${httpStatusOf[err.kind]}): ${err.message}`, { cause: err });
      logger.error({ err }, 'in-process tracking webhook failed');
      throw err;
    }
  };
}

const route = routeOf<TrackingPorts>('order');

/** POST /api/orders/tracking-webhook: Shiprocket's tracking updates. */
export const SHIPPING_ROUTES = [
  route({
    method: 'post',
    path: '/api/orders/tracking-webhook',
    auth: 'signed',
    summary:
      "Shiprocket tracking webhook, with SHIPROCKET_WEBHOOK_TOKEN in x-api-key: records the shipping status; 'OUT FOR DELIVERY' and 'DELIVERED' move the delivery status forward",
    documented: { body: TrackingBody },
    responses: {
      200: '{status: recorded | duplicate | ignored}',
      400: 'Invalid webhook body',
      401: 'Invalid webhook token',
      409: 'The order changed meanwhile; retry',
    },
    handler: (ports) => async (req, res) => {
      const status = await receiveTrackingWebhook(ports, {
        raw: req.rawBody,
        apiKey: req.headers[WEBHOOK_TOKEN_HEADER],
        body: req.body as unknown,
      });
      res.json({ status });
    },
  }),
];
