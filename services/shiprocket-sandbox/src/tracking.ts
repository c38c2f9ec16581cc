import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * What Shiprocket's tracking webhook carries, shared by the sandbox (which sends it) and the shop (which
 * reads it): the body's fields, the statuses with their Shiprocket ids, the `current_timestamp` format and the
 * `x-api-key` token check. Shiprocket signs nothing: the token set in Settings > API > Webhooks comes back
 * verbatim in the `x-api-key` header of every delivery.
 */

/** The header Shiprocket puts the webhook's security token in. */
export const WEBHOOK_TOKEN_HEADER = 'x-api-key';

/** The shipment statuses the sandbox moves a parcel through, with Shiprocket's shipment status ids. */
export const SHIPROCKET_STATUS_IDS = {
  'AWB ASSIGNED': 1,
  'PICKED UP': 42,
  'IN TRANSIT': 18,
  'OUT FOR DELIVERY': 17,
  DELIVERED: 7,
  UNDELIVERED: 21,
  'RTO INITIATED': 9,
  'RTO DELIVERED': 10,
  LOST: 12,
} as const;
export type ShiprocketStatus = keyof typeof SHIPROCKET_STATUS_IDS;
export const SHIPROCKET_STATUSES = Object.keys(SHIPROCKET_STATUS_IDS) as ShiprocketStatus[];

/** A parcel's usual way: each advance without a status moves it one step along. */
export const FORWARD_JOURNEY: readonly ShiprocketStatus[] = [
  'AWB ASSIGNED',
  'PICKED UP',
  'IN TRANSIT',
  'OUT FOR DELIVERY',
  'DELIVERED',
];

/** One scan in a tracking webhook. */
export interface ShiprocketScan {
  date: string;
  status: string;
  activity: string;
  location: string;
  'sr-status': string | number;
  'sr-status-label': string;
}

/** A tracking webhook's body as Shiprocket sends it (the fields this project reads and fills). */
export interface ShiprocketTrackingWebhook {
  awb: string;
  courier_name: string;
  current_status: string;
  current_status_id: number;
  shipment_status: string;
  shipment_status_id: number;
  /** India time, `DD MM YYYY HH:mm:ss`. */
  current_timestamp: string;
  /** The shop's order id (its order number), as sent to orders/create/adhoc. */
  order_id: string;
  sr_order_id: number;
  awb_assigned_date: string;
  pickup_scheduled_date: string | null;
  etd: string | null;
  scans: ShiprocketScan[];
  is_return: 0 | 1;
  channel_id: number;
  pod_status: string;
  pod: string;
}

const IST_OFFSET_MS = 330 * 60_000;
const two = (n: number) => String(n).padStart(2, '0');

/** A time as Shiprocket's `current_timestamp` writes it: India time, `DD MM YYYY HH:mm:ss`. */
export function shiprocketTimestamp(at: Date): string {
  const d = new Date(at.getTime() + IST_OFFSET_MS);
  return `${two(d.getUTCDate())} ${two(d.getUTCMonth() + 1)} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** A scan's `date` as Shiprocket writes it (tracking webhooks, track/awb's activities): India time, `YYYY-MM-DD HH:mm:ss`. */
export function shiprocketScanDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** A `current_timestamp` (`DD MM YYYY HH:mm:ss` or `YYYY-MM-DD HH:mm:ss`, India time) as a Date; null if neither. */
export function parseShiprocketTimestamp(text: string): Date | null {
  const t = text.trim();
  const dmy = /^(\d{2})[ /-](\d{2})[ /-](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  const ymd = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  const parts = dmy ? [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6]] : ymd ? ymd.slice(1) : null;
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts.map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  // A real calendar day and time (31 04 ... or 25:00 is no time at all).
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s) - IST_OFFSET_MS);
}

/** Whether `given` (the `x-api-key` header) is the configured token; timing-safe, never true for an empty token. */
export function verifyWebhookToken(given: unknown, token: string): boolean {
  if (typeof token !== 'string' || token.length === 0 || typeof given !== 'string' || given.length === 0) return false;
  // Comparing digests keeps the comparison timing-safe whatever the lengths.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}
