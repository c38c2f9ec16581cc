import { z } from 'zod';
import { formatRupees } from '@/lib/money';
import { parseEach } from '@/types/api';
import { textOrNull } from '@/types/fields';

// An order's event timeline as GET /api/orders/admin/{orderNumber}/history sends it
// (services/shared/src/audit/event-history.ts: HistoryEntry): its payment stream, its stock reservation
// and its order stream, in log order. Checked at the edge and lenient: an unreadable entry is dropped.

export const historyEntrySchema = z.object({
  /** Schema (service log) the event is in, e.g. 'checkout'. */
  source: z.string().catch(''),
  /** Position in that schema's log (a bigint as text); positions of different schemas are not comparable. */
  position: z.union([z.string(), z.number()]).transform(String),
  streamId: z.string().catch(''),
  eventId: z.string().catch(''),
  type: z.string().min(1),
  /** ISO-8601 UTC. */
  time: z.string().catch(''),
  /** `YYYY-MM-DD HH:mm:ss.SSS IST`. */
  indiaTime: z.string().catch(''),
  actor: textOrNull,
  correlationId: textOrNull,
  data: z.unknown(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The events of an answer, in the order sent; anything unreadable is left out rather than failing the timeline. */
export function parseOrderHistory(raw: unknown): HistoryEntry[] {
  const events = z.object({ events: z.array(z.unknown()) }).safeParse(raw);
  return events.success ? parseEach(historyEntrySchema, events.data.events) : [];
}

/** PaymentVerified → 'Payment verified', OrderMarkedSeen → 'Order marked seen'. */
export function eventName(type: string): string {
  const words = type
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (words.length === 0) return type;
  return words
    .map((word, i) =>
      i === 0 ? word[0]!.toUpperCase() + word.slice(1) : /^[A-Z]+$/.test(word) ? word : word.toLowerCase(),
    )
    .join(' ');
}

const indiaDateTime = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'Asia/Kolkata',
});

/** When the event happened in India time, like the order's own date (e.g. '22 Nov 2026, 3:30:05 pm IST'). */
export function formatIndiaTime(entry: Pick<HistoryEntry, 'time' | 'indiaTime'>): string {
  const date = new Date(entry.time);
  if (entry.time && !Number.isNaN(date.getTime())) return `${indiaDateTime.format(date)} IST`;
  return entry.indiaTime.replace(/\.\d+(?= IST$)/, '') || '—';
}

const record = z.record(z.string(), z.unknown());
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown) => (typeof value === 'string' && value ? value : null);
const rupeesOfPaise = (paise: number) => formatRupees(paise / 100);

/**
 * A short reading of the event's data where it is obvious: delivery status from → to, the amount of a payment
 * (money is in paise in events), units held or released. Null when there is nothing worth a line.
 */
export function eventSummary(entry: Pick<HistoryEntry, 'type' | 'data'>): string | null {
  const parsed = record.safeParse(entry.data);
  if (!parsed.success) return null;
  const data = parsed.data;
  const join = (...parts: (string | null)[]) => parts.filter(Boolean).join(' · ') || null;
  switch (entry.type) {
    case 'DeliveryStatusChanged': {
      const from = str(data.from);
      const to = str(data.to);
      return to ? (from ? `${from} → ${to}` : `→ ${to}`) : null;
    }
    case 'PaymentOrderOpened': {
      const amount = num(data.amountPaise);
      return amount === null ? null : rupeesOfPaise(amount);
    }
    case 'PaymentOrderCreated':
    case 'OrderPlaced': {
      const total = num(data.totalPaise);
      return total === null ? null : rupeesOfPaise(total);
    }
    case 'PaymentVerified': {
      const total = num(data.totalPaise);
      const via = str(data.via);
      return join(total === null ? null : rupeesOfPaise(total), via && `via ${via}`);
    }
    case 'PaymentFailed':
      return str(data.reason);
    case 'ShipmentCreated': {
      const awb = str(data.awb);
      return join(awb && `AWB ${awb}`, str(data.courier), str(data.shippingStatus));
    }
    case 'ShippingStatusUpdated':
      return str(data.shippingStatus);
    case 'ShipmentRefused':
      return str(data.reason);
    case 'ShipmentCancelled': {
      const awb = str(data.awb);
      return join(awb && `AWB ${awb}`, 'cancelled at Shiprocket');
    }
    case 'OrderCancelled':
      return join(str(data.reason), str(data.cancelledAs) && `by the ${str(data.cancelledAs)}`);
    case 'RefundDue':
    case 'PaymentRefunded':
    case 'OrderRefunded': {
      const amount = num(data.amountPaise);
      return join(amount === null ? null : rupeesOfPaise(amount), str(data.refundId), str(data.reason));
    }
    case 'StockReserved':
    case 'StockCommitted':
    case 'StockReleased': {
      const quantity = num(data.quantity);
      const size = str(data.size);
      return join(
        quantity === null ? null : `${quantity} ${quantity === 1 ? 'unit' : 'units'}`,
        size && `Size ${size}`,
        entry.type === 'StockReleased' ? str(data.reason) : null,
      );
    }
    default:
      return null;
  }
}
