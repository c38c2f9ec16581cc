import { createHmac } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import express, { Router, type ErrorRequestHandler } from 'express';
import { z } from 'zod';
import type { Pool } from '@shop/shared/db/pool';
import type { Logger } from '@shop/shared/observability/logger';
import { delayFor } from '@shop/shared/retry/retry';
import {
  FORWARD_JOURNEY,
  SHIPROCKET_STATUS_IDS,
  SHIPROCKET_STATUSES,
  shiprocketScanDate,
  shiprocketTimestamp,
  WEBHOOK_TOKEN_HEADER,
  type ShiprocketScan,
  type ShiprocketStatus,
  type ShiprocketTrackingWebhook,
} from './tracking.ts';

export interface ShiprocketSandboxOptions {
  /** The API user's credentials that auth/login accepts. */
  email: string;
  password: string;
  /** Where the orders and shipments are kept (schema `shiprocket_sandbox`, migrated like the rest). */
  pool: Pool;
  /** Public path the router is mounted at (e.g. '/shiprocket-sandbox'): tracking pages are linked under it. */
  basePath: string;
  /** The token sent as `x-api-key` with each tracking webhook; required with a webhook target. */
  webhookToken?: string | undefined;
  /** Where tracking webhooks are POSTed; or `webhookReceiver`, a shop in this process. Unset = no webhooks. */
  webhookUrl?: string | undefined;
  webhookReceiver?: ((delivery: TrackingDelivery) => Promise<void>) | undefined;
  /** Tries per webhook, the first included, and the wait before the first retry (doubling). */
  webhookRetry?: { attempts?: number; firstRetryDelayMs?: number };
  now?: () => Date;
  logger?: Logger | undefined;
}

/** One tracking webhook delivery: the raw JSON body and the `x-api-key` token. */
export interface TrackingDelivery {
  raw: string;
  apiKey: string;
}

export interface ShiprocketSandbox {
  router: Router;
  /** Moves a parcel one step along its journey, or to `status`; sends the tracking webhook. */
  advance(awb: string, status?: ShiprocketStatus): Promise<SandboxShipment>;
  /** Stops webhook deliveries still pending (retries included). */
  close(): Promise<void>;
}

/** A shipment as the sandbox keeps it. */
export interface SandboxShipment {
  channelOrderId: string;
  orderId: number;
  shipmentId: number;
  awb: string | null;
  courierName: string | null;
  courierId: number | null;
  currentStatus: string;
  statusId: number;
  scans: ShiprocketScan[];
  createdAt: Date;
  updatedAt: Date;
}

/** A refusal answered as Shiprocket answers: `{ message, status_code, errors? }`. */
export class ShiprocketSandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'ShiprocketSandboxError';
  }

  toBody() {
    return { message: this.message, status_code: this.status, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

const COURIER = { id: 10, name: 'Sandbox Express' };
const CHANNEL_ID = 1;
const required = (field: string) => ({ error: `The ${field} field is required.` });
const text = (field: string) => z.string(required(field)).min(1, `The ${field} field is required.`);
const num = (field: string) => z.coerce.number(required(field)).positive(`The ${field} must be greater than 0.`);

/** orders/create/adhoc: the fields Shiprocket requires (shipping_is_billing true: billing is the address). */
const CreateOrderBody = z.object({
  order_id: text('order id').max(50, 'The order id may not be greater than 50 characters.'),
  order_date: text('order date'),
  pickup_location: text('pickup location'),
  billing_customer_name: text('billing customer name'),
  billing_address: text('billing address'),
  billing_city: text('billing city').max(30, 'The billing city may not be greater than 30 characters.'),
  billing_pincode: z
    .union([z.string(), z.number()], required('billing pincode'))
    .refine((v) => /^\d{6}$/.test(String(v)), 'The billing pincode must be 6 digits.'),
  billing_state: text('billing state'),
  billing_country: text('billing country'),
  billing_email: text('billing email'),
  billing_phone: z.union([z.string(), z.number()], required('billing phone')),
  shipping_is_billing: z.union([z.boolean(), z.literal(1), z.literal(0)], required('shipping is billing')),
  order_items: z
    .array(
      z.object({
        name: text('order items name'),
        sku: text('order items sku'),
        units: z.coerce.number().int().min(1),
        selling_price: z.coerce.number().min(0),
      }),
      required('order items'),
    )
    .min(1, 'The order items field is required.'),
  payment_method: z.enum(['Prepaid', 'COD'], { error: 'The selected payment method is invalid.' }),
  sub_total: z.coerce.number(required('sub total')).min(0),
  length: num('length'),
  breadth: num('breadth'),
  height: num('height'),
  weight: num('weight'),
});

const CancelBody = z.object({
  ids: z
    .array(z.coerce.number().int().positive('The ids must be order ids.'), required('ids'))
    .min(1, 'The ids field is required.'),
});
const AssignAwbBody = z.object({ shipment_id: z.coerce.number(required('shipment id')).int().positive() });
const AdvanceBody = z.object({ status: z.enum(SHIPROCKET_STATUSES as [ShiprocketStatus]).optional() });

/** Shiprocket's status of a cancelled order and its shipment, with its status id. */
const CANCELED = 'CANCELED';
const CANCELED_STATUS_ID = 8;
/** The statuses in which an order may still be cancelled: its parcel not yet with the courier. */
const CANCELLABLE = new Set<string>(['NEW', 'AWB ASSIGNED', CANCELED]);

/** The statuses after which a parcel goes nowhere on its own. */
const JOURNEY_OVER = new Set<string>(['DELIVERED', 'RTO DELIVERED', 'LOST']);

/**
 * A Shiprocket-compatible sandbox as an express router: the external API subset the shop's adapter calls
 * (`/v1/external/auth/login`, `orders/create/adhoc`, `orders` (searched), `orders/cancel`, `courier/assign/awb`, `courier/track/awb/:awb`, with
 * Shiprocket's bearer token), a tracking page per parcel (`/tracking/:awb`) with buttons that move it along,
 * `POST /sandbox/shipments/:awb/advance` (the same, as a call), and tracking webhooks to the shop with the
 * `x-api-key` token. An order_id the sandbox already has is not created again: its order is answered.
 */
export function createShiprocketSandbox(opts: ShiprocketSandboxOptions): ShiprocketSandbox {
  if (!opts.email || !opts.password) throw new Error('Shiprocket sandbox needs an API user e-mail and password');
  if ((opts.webhookUrl || opts.webhookReceiver) && !opts.webhookToken)
    throw new Error('Shiprocket sandbox: webhookToken is required with webhookUrl or webhookReceiver');
  const basePath = opts.basePath.replace(/\/+$/, '');
  const now = opts.now ?? (() => new Date());
  const token = createHmac('sha256', opts.password).update(`shiprocket-sandbox-token:${opts.email}`).digest('hex');
  const ledger = new Ledger(opts.pool);
  const webhooks = webhookSender(opts);

  const router = Router();
  router.use(express.json({ limit: '100kb' }), express.urlencoded({ extended: false, limit: '10kb' }));

  router.post('/v1/external/auth/login', (req, res) => {
    const body = (req.body ?? {}) as { email?: unknown; password?: unknown };
    if (body.email !== opts.email || body.password !== opts.password)
      throw new ShiprocketSandboxError(403, 'Invalid email and password combination');
    res.json({ id: 1, first_name: 'API', last_name: 'User', email: opts.email, company_id: 1, token });
  });

  // The parcel's tracking page and its buttons stand for the courier: no token, any shopper may look.
  router.get('/tracking/:awb', async (req, res) => {
    const shipment = await ledger.byAwb(String(req.params.awb));
    if (!shipment) throw new ShiprocketSandboxError(404, 'No shipment with this AWB');
    res
      .type('html')
      .set({
        'cache-control': 'no-store',
        // Its own inline styles and forms posting back here; nothing else (no script at all).
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      })
      .send(trackingPage(shipment, basePath));
  });
  router.post('/sandbox/shipments/:awb/advance', async (req, res) => {
    const parsed = AdvanceBody.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new ShiprocketSandboxError(422, `status must be one of ${SHIPROCKET_STATUSES.join(', ')}`);
    const shipment = await advance(String(req.params.awb), parsed.data.status);
    // The page's buttons post a form: back to the page. A call gets the shipment.
    if (req.is('application/x-www-form-urlencoded'))
      return void res.redirect(303, `${basePath}/tracking/${encodeURIComponent(shipment.awb!)}`);
    res.json({ awb: shipment.awb, current_status: shipment.currentStatus, current_status_id: shipment.statusId });
  });

  router.use('/v1/external', (req, _res, next) => {
    if (req.headers.authorization !== `Bearer ${token}`) throw new ShiprocketSandboxError(401, 'Unauthenticated.');
    next();
  });
  router.post('/v1/external/orders/create/adhoc', async (req, res) => {
    const body = parsed(CreateOrderBody, req.body);
    const shipment = await ledger.create(body.order_id, req.body as object, now());
    res.json({
      order_id: shipment.orderId,
      channel_order_id: shipment.channelOrderId,
      shipment_id: shipment.shipmentId,
      status: shipment.awb ? shipment.currentStatus : 'NEW',
      status_code: 1,
      onboarding_completed_now: 0,
      awb_code: shipment.awb ?? '',
      courier_company_id: shipment.courierId ?? '',
      courier_name: shipment.courierName ?? '',
    });
  });
  // The order list (GET orders), as far as the shop reads it: `search` by AWB or channel order id, one page.
  router.get('/v1/external/orders', async (req, res) => {
    const term = typeof req.query.search === 'string' ? req.query.search.trim() : '';
    const found = term ? await ledger.search(term) : null;
    res.json({
      data: found
        ? [
            {
              id: found.orderId,
              channel_id: CHANNEL_ID,
              channel_order_id: found.channelOrderId,
              status: found.awb ? found.currentStatus : 'NEW',
              status_code: found.statusId,
              created_at: found.createdAt.toISOString(),
              shipments: [
                {
                  id: found.shipmentId,
                  awb: found.awb ?? '',
                  courier: found.courierName ?? '',
                  status: found.currentStatus,
                },
              ],
            },
          ]
        : [],
      meta: {
        pagination: { total: found ? 1 : 0, count: found ? 1 : 0, per_page: 15, current_page: 1, total_pages: 1 },
      },
    });
  });
  // Cancels orders by Shiprocket's order ids, before pickup; one already cancelled stays so without error.
  router.post('/v1/external/orders/cancel', async (req, res) => {
    const { ids } = parsed(CancelBody, req.body);
    await ledger.cancel(ids, now());
    res.json({ status: 200, message: 'Order cancelled successfully.' });
  });
  router.post('/v1/external/courier/assign/awb', async (req, res) => {
    const { shipment_id } = parsed(AssignAwbBody, req.body);
    const shipment = await ledger.assignAwb(shipment_id, now());
    res.json({
      awb_assign_status: 1,
      response: {
        data: {
          courier_company_id: shipment.courierId,
          awb_code: shipment.awb,
          order_id: shipment.orderId,
          shipment_id: shipment.shipmentId,
          courier_name: shipment.courierName,
          assigned_date_time: { date: shipment.updatedAt.toISOString() },
          transporter_id: '',
          transporter_name: '',
        },
      },
    });
  });
  router.get('/v1/external/courier/track/awb/:awb', async (req, res) => {
    const shipment = await ledger.byAwb(String(req.params.awb));
    if (!shipment?.awb)
      return void res.json({
        tracking_data: {
          track_status: 0,
          shipment_status: 0,
          error: 'Aahh! There is no activities found in our DB. Please have some patience it will be updated soon.',
        },
      });
    res.json({
      tracking_data: {
        track_status: 1,
        shipment_status: shipment.statusId,
        shipment_track: [
          {
            awb_code: shipment.awb,
            courier_company_id: shipment.courierId,
            shipment_id: shipment.shipmentId,
            order_id: shipment.orderId,
            current_status: shipment.currentStatus,
            delivered_date: shipment.currentStatus === 'DELIVERED' ? shipment.updatedAt.toISOString() : null,
            courier_name: shipment.courierName,
          },
        ],
        shipment_track_activities: [...shipment.scans].reverse(),
        track_url: `${basePath}/tracking/${shipment.awb}`,
        etd: null,
      },
    });
  });

  router.use((_req, res) => {
    res.status(404).json(new ShiprocketSandboxError(404, 'Not found').toBody());
  });
  router.use(errors(opts.logger));

  async function advance(awb: string, status?: ShiprocketStatus): Promise<SandboxShipment> {
    const at = now();
    const shipment = await ledger.advance(awb, status, at);
    webhooks?.send(webhookBody(shipment, at));
    return shipment;
  }

  return { router, advance, close: async () => webhooks?.close() };
}

function parsed<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const errors: Record<string, string[]> = {};
  for (const issue of r.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  throw new ShiprocketSandboxError(422, 'Oops! Invalid Data.', errors);
}

function errors(logger: Logger | undefined): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return;
    let refusal: ShiprocketSandboxError;
    if (err instanceof ShiprocketSandboxError) refusal = err;
    else if ((err as { type?: string }).type === 'entity.parse.failed')
      refusal = new ShiprocketSandboxError(400, 'The request body is not valid JSON.');
    else {
      logger?.error({ err }, 'shiprocket sandbox failed');
      refusal = new ShiprocketSandboxError(500, 'Something went wrong. Please try again later.');
    }
    res.status(refusal.status).json(refusal.toBody());
  };
}

function webhookBody(s: SandboxShipment, at: Date): ShiprocketTrackingWebhook {
  return {
    awb: s.awb!,
    courier_name: s.courierName ?? '',
    current_status: s.currentStatus,
    current_status_id: s.statusId,
    shipment_status: s.currentStatus,
    shipment_status_id: s.statusId,
    current_timestamp: shiprocketTimestamp(at),
    order_id: s.channelOrderId,
    sr_order_id: s.orderId,
    awb_assigned_date: shiprocketTimestamp(s.createdAt),
    pickup_scheduled_date: null,
    etd: null,
    scans: s.scans,
    is_return: s.currentStatus.startsWith('RTO') ? 1 : 0,
    channel_id: CHANNEL_ID,
    pod_status: s.currentStatus === 'DELIVERED' ? 'OTP Based Delivery' : '',
    pod: s.currentStatus === 'DELIVERED' ? 'Available' : 'Not Available',
  };
}

interface Row {
  channel_order_id: string;
  order_id: string;
  shipment_id: string;
  awb_code: string | null;
  courier_name: string | null;
  courier_id: number | null;
  current_status: string;
  status_id: number;
  scans: ShiprocketScan[];
  created_at: Date;
  updated_at: Date;
}

const shipmentOf = (r: Row): SandboxShipment => ({
  channelOrderId: r.channel_order_id,
  orderId: Number(r.order_id),
  shipmentId: Number(r.shipment_id),
  awb: r.awb_code,
  courierName: r.courier_name,
  courierId: r.courier_id,
  currentStatus: r.current_status,
  statusId: r.status_id,
  scans: r.scans,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const scan = (status: string, at: Date): ShiprocketScan => ({
  date: shiprocketScanDate(at),
  status,
  activity: `Sandbox: ${status.toLowerCase()}`,
  location: 'Sandbox hub',
  'sr-status': status === CANCELED ? CANCELED_STATUS_ID : (SHIPROCKET_STATUS_IDS[status as ShiprocketStatus] ?? ''),
  'sr-status-label': status,
});

/** The sandbox's orders and shipments in Postgres (one shipment per order). */
class Ledger {
  constructor(private readonly pool: Pool) {}

  /** The order of this channel order id: made now, or the one made before (its body is not changed). */
  async create(channelOrderId: string, body: object, at: Date): Promise<SandboxShipment> {
    await this.pool.query(
      `INSERT INTO shiprocket_sandbox.orders (channel_order_id, shipment_id, current_status, status_id, body, created_at, updated_at)
       VALUES ($1, nextval('shiprocket_sandbox.shipment_ids'), 'NEW', 0, $2, $3, $3)
       ON CONFLICT (channel_order_id) DO NOTHING`,
      [channelOrderId, JSON.stringify(body), at],
    );
    return (await this.find('channel_order_id = $1', channelOrderId))!;
  }

  /** Gives the shipment its AWB (once: a shipment that has one keeps it). */
  async assignAwb(shipmentId: number, at: Date): Promise<SandboxShipment> {
    const awb = `SR${String(shipmentId).padStart(12, '0')}`;
    const first = scan('AWB ASSIGNED', at);
    await this.pool.query(
      `UPDATE shiprocket_sandbox.orders
          SET awb_code = $2, courier_name = $3, courier_id = $4, current_status = 'AWB ASSIGNED', status_id = $5,
              scans = jsonb_build_array($6::jsonb), updated_at = $7
        WHERE shipment_id = $1 AND awb_code IS NULL`,
      [shipmentId, awb, COURIER.name, COURIER.id, SHIPROCKET_STATUS_IDS['AWB ASSIGNED'], JSON.stringify(first), at],
    );
    const shipment = await this.find('shipment_id = $1', shipmentId);
    if (!shipment) throw new ShiprocketSandboxError(400, 'Shipment id does not exist');
    return shipment;
  }

  byAwb(awb: string): Promise<SandboxShipment | null> {
    return this.find('awb_code = $1', awb);
  }

  /** The order of a search term as Shiprocket's order list takes it: an AWB, or a channel order id. */
  async search(term: string): Promise<SandboxShipment | null> {
    return (await this.find('channel_order_id = $1', term)) ?? this.byAwb(term);
  }

  /**
   * Cancels these orders (Shiprocket's order ids), all or none: an unknown id is refused (422), so is an order
   * whose parcel the courier has (400); one already cancelled is left as it is.
   */
  async cancel(orderIds: number[], at: Date): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Row>(
        'SELECT * FROM shiprocket_sandbox.orders WHERE order_id = ANY($1::bigint[]) ORDER BY order_id FOR UPDATE',
        [orderIds],
      );
      const found = new Set(rows.map((r) => Number(r.order_id)));
      const unknown = orderIds.filter((id) => !found.has(id));
      if (unknown.length)
        throw new ShiprocketSandboxError(422, 'Oops! Invalid Data.', {
          ids: [`No order with id ${unknown.join(', ')}.`],
        });
      const picked = rows.filter((r) => !CANCELLABLE.has(r.current_status));
      if (picked.length)
        throw new ShiprocketSandboxError(
          400,
          `Order ${picked.map((r) => r.order_id).join(', ')} cannot be cancelled: its shipment is ${picked[0]!.current_status}.`,
        );
      await client.query(
        `UPDATE shiprocket_sandbox.orders
            SET current_status = $2, status_id = $3, scans = scans || jsonb_build_array($4::jsonb), updated_at = $5
          WHERE order_id = ANY($1::bigint[]) AND current_status <> $2`,
        [orderIds, CANCELED, CANCELED_STATUS_ID, JSON.stringify(scan(CANCELED, at)), at],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** One step along FORWARD_JOURNEY, or to `status`; refused once the journey is over or the order cancelled (409). */
  async advance(awb: string, status: ShiprocketStatus | undefined, at: Date): Promise<SandboxShipment> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Row>(
        'SELECT * FROM shiprocket_sandbox.orders WHERE awb_code = $1 FOR UPDATE',
        [awb],
      );
      if (!rows[0]) throw new ShiprocketSandboxError(404, 'No shipment with this AWB');
      const current = rows[0].current_status;
      if (current === CANCELED) throw new ShiprocketSandboxError(409, 'This order has been cancelled');
      let next = status;
      if (!next) {
        if (JOURNEY_OVER.has(current) || current.startsWith('RTO'))
          throw new ShiprocketSandboxError(409, `This parcel's journey is over (${current})`);
        next = FORWARD_JOURNEY[FORWARD_JOURNEY.indexOf(current as ShiprocketStatus) + 1] ?? 'PICKED UP';
      }
      const { rows: updated } = await client.query<Row>(
        `UPDATE shiprocket_sandbox.orders
            SET current_status = $2, status_id = $3, scans = scans || jsonb_build_array($4::jsonb), updated_at = $5
          WHERE awb_code = $1 RETURNING *`,
        [awb, next, SHIPROCKET_STATUS_IDS[next], JSON.stringify(scan(next, at)), at],
      );
      await client.query('COMMIT');
      return shipmentOf(updated[0]!);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async find(where: string, value: unknown): Promise<SandboxShipment | null> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM shiprocket_sandbox.orders WHERE ${where}`, [value]);
    return rows[0] ? shipmentOf(rows[0]) : null;
  }
}

/** Delivers tracking webhooks one after another (in the order the parcel moved), retried with backoff. */
function webhookSender(opts: ShiprocketSandboxOptions) {
  const target = opts.webhookReceiver ?? (opts.webhookUrl ? httpTrackingTransport(opts.webhookUrl) : undefined);
  if (!target || !opts.webhookToken) return undefined;
  const apiKey = opts.webhookToken;
  const attempts = opts.webhookRetry?.attempts ?? 5;
  const firstRetryDelayMs = opts.webhookRetry?.firstRetryDelayMs ?? 250;
  const stop = new AbortController();
  let queue: Promise<void> = Promise.resolve();

  async function deliver(body: ShiprocketTrackingWebhook): Promise<void> {
    const delivery: TrackingDelivery = { raw: JSON.stringify(body), apiKey };
    for (let attempt = 1; attempt <= attempts && !stop.signal.aborted; attempt++) {
      try {
        await target!(delivery);
        return;
      } catch (err) {
        opts.logger?.debug(
          { awb: body.awb, status: body.current_status, attempt, err },
          'sandbox tracking webhook not taken',
        );
      }
      if (attempt < attempts)
        await delay(delayFor({ baseMs: firstRetryDelayMs }, attempt), undefined, { signal: stop.signal }).catch(
          () => undefined,
        );
    }
    if (!stop.signal.aborted)
      opts.logger?.warn({ awb: body.awb, status: body.current_status, attempts }, 'sandbox tracking webhook given up');
  }

  return {
    send(body: ShiprocketTrackingWebhook): void {
      queue = queue.then(() => deliver(body));
    },
    async close(): Promise<void> {
      stop.abort();
      await queue;
    },
  };
}

/** POSTs a tracking webhook as Shiprocket does: JSON, the token in `x-api-key`; anything but 2xx is a refusal. */
export function httpTrackingTransport(url: string, timeoutMs = 5_000): (d: TrackingDelivery) => Promise<void> {
  return async ({ raw, apiKey }) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_TOKEN_HEADER]: apiKey },
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`tracking webhook refused with status ${res.status}`);
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The sandbox's tracking page: where the parcel is, its scans, and buttons that move it along. */
function trackingPage(s: SandboxShipment, basePath: string): string {
  const awb = escapeHtml(s.awb ?? '');
  const action = `${basePath}/sandbox/shipments/${encodeURIComponent(s.awb ?? '')}/advance`;
  const button = (label: string, status?: string) =>
    `<form method="post" action="${escapeHtml(action)}">${status ? `<input type="hidden" name="status" value="${escapeHtml(status)}">` : ''}<button type="submit">${escapeHtml(label)}</button></form>`;
  const scans = [...s.scans]
    .reverse()
    .map(
      (x) =>
        `<li><strong>${escapeHtml(x.status)}</strong> · ${escapeHtml(x.date)} IST · ${escapeHtml(x.location)}</li>`,
    )
    .join('');
  const cancelled = s.currentStatus === CANCELED;
  const over = JOURNEY_OVER.has(s.currentStatus) || s.currentStatus.startsWith('RTO');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tracking ${awb} · Shiprocket sandbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}form{display:inline-block;margin:0 .5rem .5rem 0}button{padding:.5rem 1rem}</style></head>
<body><p>Shiprocket sandbox: no parcel moves. The buttons stand for the courier and send the tracking webhook to the shop.</p>
<h1>AWB ${awb}</h1><p>Order ${escapeHtml(s.channelOrderId)} · ${escapeHtml(s.courierName ?? '')}</p>
<p>Status: <strong>${escapeHtml(s.currentStatus)}</strong></p>
${cancelled ? '<p>The order has been cancelled: no courier comes for this parcel.</p>' : `${over ? '' : button('Advance to the next step')}${button('RTO initiated', 'RTO INITIATED')}${button('RTO delivered', 'RTO DELIVERED')}${button('Lost', 'LOST')}${button('Undelivered', 'UNDELIVERED')}`}
<h2>Scans</h2><ol>${scans}</ol></body></html>`;
}
