import type { Pool } from 'pg';
import { schemaIdentifier } from '../bus/schema-name.ts';
import { INDIA_OFFSET_MS } from '../time/india-date.ts';

/**
 * Read-only histories of an entity for auditors and on-call engineers: every event of the streams that make
 * it up, in log order, across the services' logs (one Postgres database holds every service schema in both
 * run modes). Used by `npm run audit` and `GET /api/orders/admin/{orderNumber}/history`.
 */

/** Where an event stands: its log, its place there and in its stream, its id and type. */
export interface EventPlace {
  /** Schema (service log) the event is in. */
  source: string;
  /** Global position in that schema's log, as a string (a bigint). */
  position: string;
  streamId: string;
  streamVersion: number;
  eventId: string;
  type: string;
}

/** One event as an auditor reads it. Positions are per schema (`checkout#42`), never across schemas. */
export interface HistoryEntry extends EventPlace {
  schemaVersion: number;
  /** When the command ran (metadata.occurredAt, else the row's recorded_at), ISO-8601 UTC. */
  time: string;
  /** The same instant in India time (UTC+05:30): `YYYY-MM-DD HH:mm:ss.SSS IST`. */
  indiaTime: string;
  actor: string | null;
  correlationId: string | null;
  causationId: string | null;
  data: unknown;
}

interface Row {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown> | null;
  recorded_at: Date;
}

/** `2026-11-22 15:45:00.000 IST` for an instant. */
export function indiaTime(at: Date): string {
  return `${new Date(at.getTime() + INDIA_OFFSET_MS).toISOString().replace('T', ' ').replace('Z', '')} IST`;
}

const COLUMNS = `global_position::text, transaction_id::text, stream_id, stream_version, event_id, type, schema_version,
  data, metadata, recorded_at`;

interface Fetched {
  source: string;
  row: Row;
}

async function fetch(pool: Pool, source: string, where: string, params: unknown[]): Promise<Fetched[]> {
  const { rows } = await pool.query<Row>(
    `SELECT ${COLUMNS} FROM ${schemaIdentifier(source)}.events WHERE ${where}
      ORDER BY transaction_id, global_position`,
    params,
  );
  return rows.map((row) => ({ source, row }));
}

function toEntry({ source, row }: Fetched): HistoryEntry {
  const meta = row.metadata ?? {};
  const occurred = typeof meta.occurredAt === 'string' ? new Date(meta.occurredAt) : row.recorded_at;
  const at = Number.isNaN(occurred.getTime()) ? row.recorded_at : occurred;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    source,
    position: row.global_position,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    eventId: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    time: at.toISOString(),
    indiaTime: indiaTime(at),
    actor: text(meta.actor),
    correlationId: text(meta.correlationId),
    causationId: text(meta.causationId),
    data: row.data,
  };
}

/** When the event's command ran: metadata.occurredAt (the appending process's clock), else recorded_at. */
function occurredMs({ row }: Fetched): number {
  const at = typeof row.metadata?.occurredAt === 'string' ? Date.parse(row.metadata.occurredAt) : NaN;
  return Number.isNaN(at) ? row.recorded_at.getTime() : at;
}

/**
 * Log order across logs: each log's events stay in their commit order; logs are interleaved by the time
 * their events occurred (positions of different schemas are not comparable).
 */
function inLogOrder(groups: Fetched[][]): HistoryEntry[] {
  const seen = new Set<string>();
  const lists = groups.map((g) => g.filter((f) => !seen.has(f.row.event_id) && seen.add(f.row.event_id)));
  const heads = lists.map(() => 0);
  const out: HistoryEntry[] = [];
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const f = lists[i]![heads[i]!];
      if (!f) continue;
      const b = best < 0 ? undefined : lists[best]![heads[best]!]!;
      if (!b || occurredMs(f) < occurredMs(b)) best = i;
    }
    if (best < 0) return out;
    out.push(toEntry(lists[best]![heads[best]!]!));
    heads[best]! += 1;
  }
}

interface HoldRef {
  productId: string;
  stockSize: string | null;
}

const stockStream = (h: HoldRef) => `stock-${h.productId}${h.stockSize ? `:${h.stockSize}` : ''}`;

/** The catalog's stock events of a reservation (hold ids `<reservationId>#<line>`), narrowed to its streams when known. */
async function reservationEvents(pool: Pool, reservationId: string, holds: HoldRef[]): Promise<Fetched[]> {
  const like = `${reservationId.replace(/[\\%_]/g, (c) => `\\${c}`)}#%`;
  const types = ['StockReserved', 'StockReleased', 'StockCommitted'];
  if (holds.length > 0)
    return fetch(
      pool,
      'catalog',
      `stream_id = ANY($1) AND type = ANY($2) AND (data->>'reservationId' LIKE $3 OR data->>'reservationId' = $4)`,
      [[...new Set(holds.map(stockStream))], types, like, reservationId],
    );
  return fetch(pool, 'catalog', `type = ANY($1) AND (data->>'reservationId' LIKE $2 OR data->>'reservationId' = $3)`, [
    types,
    like,
    reservationId,
  ]);
}

/** Payment stream, stock reservation and order stream of a provider order; null if none of them exists. */
export async function paymentHistory(pool: Pool, razorpayOrderId: string): Promise<HistoryEntry[] | null> {
  const payment = await fetch(pool, 'checkout', 'stream_id = $1', [`payment-${razorpayOrderId}`]);
  const placed = await fetch(pool, 'orders', `type = 'OrderPlaced' AND data->>'razorpayOrderId' = $1`, [
    razorpayOrderId,
  ]);
  const orderNumber = (placed[0]?.row.data as { orderNumber?: string } | undefined)?.orderNumber;
  const order = orderNumber ? await fetch(pool, 'orders', 'stream_id = $1', [`order-${orderNumber}`]) : [];
  if (payment.length === 0 && order.length === 0) return null;
  let reservationId: string | undefined;
  const holds: HoldRef[] = [];
  for (const { row } of payment) {
    const d = row.data as { reservationId?: string; holds?: HoldRef[] };
    reservationId ??= d.reservationId;
    if (Array.isArray(d.holds)) holds.push(...d.holds);
  }
  const stock = reservationId ? await reservationEvents(pool, reservationId, holds) : [];
  return inLogOrder([payment, stock, order]);
}

/** An order's history (its payment stream, its stock reservation, its order stream); null for an unknown order. */
export async function orderHistory(pool: Pool, orderNumber: string): Promise<HistoryEntry[] | null> {
  const order = await fetch(pool, 'orders', 'stream_id = $1', [`order-${orderNumber}`]);
  if (order.length === 0) return null;
  const placed = order.find((f) => f.row.type === 'OrderPlaced');
  const razorpayOrderId = (placed?.row.data as { razorpayOrderId?: string } | undefined)?.razorpayOrderId;
  if (!razorpayOrderId) return inLogOrder([order]);
  return (await paymentHistory(pool, razorpayOrderId)) ?? inLogOrder([order]);
}

/** A product's stream and its stock streams (general and per size); null if it never existed. */
export async function productHistory(pool: Pool, productId: string): Promise<HistoryEntry[] | null> {
  const product = await fetch(pool, 'catalog', 'stream_id = $1', [`product-${productId}`]);
  const stock = await fetch(pool, 'catalog', `stream_id = $1 OR (stream_id LIKE $2 ESCAPE '\\')`, [
    `stock-${productId}`,
    `stock-${productId.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`,
  ]);
  if (product.length === 0 && stock.length === 0) return null;
  return inLogOrder([product, stock]);
}

/**
 * A user's account: the user stream, every e-mail claim stream it held, its testimonials (accounts) and its
 * address book (checkout); null if no account ever claimed the address.
 */
export async function userHistory(pool: Pool, email: string): Promise<HistoryEntry[] | null> {
  const claims = await fetch(pool, 'accounts', `stream_id = $1 AND type = 'EmailClaimed'`, [
    `email-${email.trim().toLowerCase()}`,
  ]);
  const userIds = [...new Set(claims.map((c) => (c.row.data as { userId: string }).userId))];
  if (userIds.length === 0) return null;
  const accounts = await fetch(
    pool,
    'accounts',
    `stream_id = ANY($1) OR stream_id IN (SELECT DISTINCT stream_id FROM accounts.events
       WHERE (type IN ('EmailClaimed', 'EmailReleased') OR type LIKE 'Testimonial%') AND data->>'userId' = ANY($2))`,
    [userIds.map((id) => `user-${id}`), userIds],
  );
  const addresses = await fetch(pool, 'checkout', 'stream_id = ANY($1)', [userIds.map((id) => `addresses-${id}`)]);
  return inLogOrder([accounts, addresses]);
}

/** Human-readable lines of a history, one block per event. */
export function formatHistory(title: string, entries: HistoryEntry[]): string {
  const lines = [`${title}: ${entries.length} event${entries.length === 1 ? '' : 's'}`];
  for (const e of entries) {
    lines.push(
      `${`${e.source}#${e.position}`.padEnd(14)} ${e.indiaTime}  ${e.type}  ${e.streamId}@${e.streamVersion}` +
        (e.schemaVersion !== 1 ? ` (schema v${e.schemaVersion})` : ''),
      `${' '.repeat(15)}actor: ${e.actor ?? '-'}  correlation: ${e.correlationId ?? '-'}`,
      `${' '.repeat(15)}data: ${JSON.stringify(e.data)}`,
    );
  }
  return lines.join('\n');
}
