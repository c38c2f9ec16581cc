import { UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import { paiseToRupees } from '@shop/shared/money/money';
import { parseShiprocketTimestamp } from '@shop/shiprocket-sandbox/tracking';
import type { ProviderShipment, ProviderTracking, ShipmentRequest, ShippingProvider } from './shipping-provider.ts';

export interface ShiprocketProviderOptions {
  /** Base of the external API, up to /v1/external (Shiprocket's, or the sandbox's). */
  apiUrl: string;
  email: string;
  password: string;
  pickupLocation: string;
  trackingUrlBase: string;
  /** Per request (default 15 s). */
  timeoutMs?: number;
}

/** A parcel's size and weight when the catalog gives none: a folded garment in a courier bag. */
const PARCEL = { length: 30, breadth: 25, height: 5, weightKgPerUnit: 0.5 };
/** Shiprocket answers a login with a token valid 240 hours; it is renewed well before. */
const TOKEN_TTL_MS = 200 * 3600_000;
const IST_OFFSET_MS = 330 * 60_000;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The Shiprocket adapter: logs in for a bearer token (kept, and renewed on a 401), creates the order with the
 * order number as its `order_id` (Shiprocket's documentation: a repeated order_id does not change or add to the
 * order it has; the sandbox answers that order, with its AWB once assigned; a refusal of the repeat is met by
 * finding the order in the order list, searched by the order number), assigns an AWB unless the answer has one,
 * cancels by Shiprocket's order id (orders/cancel), and reads tracking by AWB (the status and the time of the
 * latest scan).
 */
export function createShiprocketProvider(opts: ShiprocketProviderOptions): ShippingProvider {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let token: { value: string; until: number } | null = null;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, auth = true): Promise<Answer> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${await bearer()}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new UnavailableError(
        `Shiprocket could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      if (res.ok) throw new UnavailableError(`Shiprocket answered ${path} with a body that is not JSON`);
    }
    return { status: res.status, body: parsed };
  }

  async function bearer(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const r = await call('POST', '/auth/login', { email: opts.email, password: opts.password }, false);
    const value = r.body.token;
    if (r.status !== 200 || typeof value !== 'string')
      throw new UnavailableError(`Shiprocket login failed (${r.status}): ${messageOf(r)}`);
    token = { value, until: Date.now() + TOKEN_TTL_MS };
    return value;
  }

  /** A call with the token; a 401 (token expired or revoked) logs in again once. Refusals become AppErrors. */
  async function api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    let r = await call(method, path, body);
    if (r.status === 401) {
      token = null;
      r = await call(method, path, body);
    }
    if (r.status >= 200 && r.status < 300) return r.body;
    const message = `Shiprocket refused ${path} (${r.status}): ${messageOf(r)}`;
    // A refusal carries Shiprocket's own words (what the admin is shown when it refuses a shipment).
    if (r.status >= 400 && r.status < 500 && r.status !== 401 && r.status !== 429)
      throw new ValidationError(message, { status: r.status, providerMessage: refusalWords(r) });
    throw new UnavailableError(message);
  }

  const trackingUrl = (awb: string) => `${opts.trackingUrlBase}${encodeURIComponent(awb)}`;

  /** The order of this order number in Shiprocket's order list (searched by channel order id), or null. */
  async function findShipment(orderNumber: string): Promise<ProviderShipment | null> {
    const list = await api('GET', `/orders?search=${encodeURIComponent(orderNumber)}`);
    const orders = Array.isArray(list.data) ? (list.data as Record<string, unknown>[]) : [];
    const order = orders.find((o) => String(o.channel_order_id ?? '') === orderNumber);
    const shipment = (order?.shipments as Record<string, unknown>[] | undefined)?.[0];
    if (!order || !shipment?.id) return null;
    const awb = typeof shipment.awb === 'string' ? shipment.awb : '';
    return {
      shipmentId: String(shipment.id),
      providerOrderId: String(order.id ?? ''),
      awb,
      courier: typeof shipment.courier === 'string' ? shipment.courier : '',
      trackingUrl: awb ? trackingUrl(awb) : '',
      shippingStatus: typeof order.status === 'string' ? order.status : '',
    };
  }

  /**
   * Shiprocket's order of the request: made now; or, when it refuses the order_id as one it has (a repeat,
   * refused with a 422 where it does not answer the order), the order it has, found in its order list.
   */
  async function providerOrder(request: ShipmentRequest): Promise<Omit<ProviderShipment, 'trackingUrl'>> {
    let order: Record<string, unknown>;
    try {
      order = await api('POST', '/orders/create/adhoc', adhocOrder(request, opts.pickupLocation));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const existing = await findShipment(request.orderNumber);
      if (!existing) throw err;
      return existing;
    }
    const awb = typeof order.awb_code === 'string' ? order.awb_code : '';
    return {
      shipmentId: String(order.shipment_id ?? ''),
      providerOrderId: String(order.order_id ?? ''),
      awb,
      courier: typeof order.courier_name === 'string' ? order.courier_name : '',
      shippingStatus: awb && typeof order.status === 'string' ? order.status : 'AWB ASSIGNED',
    };
  }

  return {
    findShipment,

    async createShipment(request: ShipmentRequest): Promise<ProviderShipment> {
      const order = await providerOrder(request);
      const { shipmentId, providerOrderId } = order;
      if (!shipmentId || !providerOrderId)
        throw new UnavailableError(`Shiprocket made no shipment for ${request.orderNumber}`);
      let { awb, courier, shippingStatus } = order;
      if (!awb) {
        const assigned = await api('POST', '/courier/assign/awb', { shipment_id: Number(shipmentId) });
        const data = (assigned.response as { data?: Record<string, unknown> } | undefined)?.data;
        if (assigned.awb_assign_status !== 1 || typeof data?.awb_code !== 'string' || !data.awb_code)
          throw new UnavailableError(
            `Shiprocket assigned no AWB to shipment ${shipmentId}: ${JSON.stringify(assigned).slice(0, 200)}`,
          );
        awb = data.awb_code;
        courier = typeof data.courier_name === 'string' ? data.courier_name : '';
        shippingStatus = 'AWB ASSIGNED';
      }
      return { shipmentId, providerOrderId, awb, courier, trackingUrl: trackingUrl(awb), shippingStatus };
    },

    async cancelShipment({ providerOrderId }) {
      // orders/cancel takes Shiprocket's order ids; an order already cancelled is cancelled again without error.
      const id = Number(providerOrderId);
      if (!Number.isSafeInteger(id) || id <= 0)
        throw new ValidationError(`Not a Shiprocket order id: ${JSON.stringify(providerOrderId)}`);
      await api('POST', '/orders/cancel', { ids: [id] });
    },

    async track(awb: string): Promise<ProviderTracking> {
      const r = await api('GET', `/courier/track/awb/${encodeURIComponent(awb)}`);
      const data = r.tracking_data as
        { shipment_track?: { current_status?: unknown }[]; shipment_track_activities?: unknown } | undefined;
      const status = data?.shipment_track?.[0]?.current_status;
      return {
        awb,
        shippingStatus: typeof status === 'string' ? status : null,
        updatedAt: latestScanTime(data?.shipment_track_activities),
        trackingUrl: trackingUrl(awb),
      };
    },
  };
}

/**
 * The time of the latest scan in track/awb's `shipment_track_activities`: each has its `date` (`YYYY-MM-DD
 * HH:mm:ss`, India time); Shiprocket lists the latest first, the latest is taken whatever the order. Null with
 * no scan, or none whose date reads.
 */
function latestScanTime(activities: unknown): Date | null {
  if (!Array.isArray(activities)) return null;
  let latest: Date | null = null;
  for (const a of activities as { date?: unknown }[]) {
    const at = typeof a?.date === 'string' ? parseShiprocketTimestamp(a.date) : null;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

function messageOf(r: Answer): string {
  const { message, errors } = r.body;
  const parts = [typeof message === 'string' ? message : `status ${r.status}`];
  if (errors && typeof errors === 'object') parts.push(JSON.stringify(errors).slice(0, 300));
  return parts.join(' ');
}

/**
 * A refusal in Shiprocket's words for a person: its field errors' messages (a 422's `errors`, e.g.
 * {"billing_pincode": ["The billing pincode must be 6 digits."]}), else its message.
 */
function refusalWords(r: Answer): string {
  const { message, errors } = r.body;
  const words =
    errors && typeof errors === 'object'
      ? Object.values(errors)
          .flat()
          .filter((w): w is string => typeof w === 'string' && w.trim() !== '')
      : [];
  if (words.length > 0) return words.join(' ');
  return typeof message === 'string' && message.trim() ? message : `status ${r.status}`;
}

/**
 * The address as Shiprocket's billing fields want it. The shop keeps one address line (street, city, state
 * as the shopper typed them, comma-separated): the last part is read as the state, the one before as the city.
 */
export function addressParts(address: string): { line: string; city: string; state: string } {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  // Three parts or more: "street, city, state"; fewer: the last part is the best reading of both.
  const city = parts.length > 2 ? parts[parts.length - 2]! : last;
  return { line: address.trim(), city: city.slice(0, 30), state: last };
}

/** `yyyy-mm-dd HH:MM`, India time, as orders/create/adhoc takes order_date. */
const orderDate = (at: Date) => new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');

/** The orders/create/adhoc body of a prepaid order shipped to its billing address (amounts in rupees). */
function adhocOrder(r: ShipmentRequest, pickupLocation: string) {
  const { line, city, state } = addressParts(r.address);
  const units = r.lines.reduce((n, l) => n + l.quantity, 0);
  return {
    order_id: r.orderNumber,
    order_date: orderDate(r.placedAt),
    pickup_location: pickupLocation,
    billing_customer_name: r.customer.name,
    billing_last_name: '',
    billing_address: line,
    billing_city: city,
    billing_pincode: r.pincode,
    billing_state: state,
    billing_country: 'India',
    billing_email: r.customer.email,
    billing_phone: r.customer.phone,
    shipping_is_billing: true,
    order_items: r.lines.map((l) => ({
      name: l.name,
      sku: [l.productId, l.size, l.color].filter(Boolean).join('-').slice(0, 50),
      units: l.quantity,
      selling_price: paiseToRupees(l.unitPricePaise),
    })),
    payment_method: 'Prepaid',
    shipping_charges: paiseToRupees(r.chargesPaise),
    total_discount: paiseToRupees(r.discountPaise),
    sub_total: paiseToRupees(r.subtotalPaise),
    length: PARCEL.length,
    breadth: PARCEL.breadth,
    height: PARCEL.height,
    weight: Math.max(0.5, units * PARCEL.weightKgPerUnit),
  };
}
