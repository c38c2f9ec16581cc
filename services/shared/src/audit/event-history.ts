import type {
  AccountsHistoryPort,
  CatalogHistoryPort,
  CheckoutHistoryPort,
  HistoryEntry,
  HoldRef,
  OrderHistoryParts,
} from '../contracts/event-history.ts';
import { inLogOrder } from './history-reader.ts';

/**
 * Read-only histories of an entity for auditors and on-call engineers: every event of the streams that make
 * it up, in log order, composed from the parts each service serves of its own log (the ports of
 * contracts/event-history). Used by `npm run audit` and `GET /api/orders/admin/{orderNumber}/history`.
 */

export type { EventPlace, HistoryEntry } from '../contracts/event-history.ts';
export { indiaTime } from './history-reader.ts';

/** Payment stream, stock reservation and order stream of a provider order; null if none of them exists. */
export async function paymentHistory(
  parts: OrderHistoryParts,
  razorpayOrderId: string,
): Promise<HistoryEntry[] | null> {
  const payment = await parts.checkout.payment(razorpayOrderId);
  const order = await parts.order.orderOfPayment(razorpayOrderId);
  if (payment.length === 0 && order.length === 0) return null;
  let reservationId: string | undefined;
  const holds: HoldRef[] = [];
  for (const { data } of payment) {
    const d = data as { reservationId?: string; holds?: HoldRef[] };
    reservationId ??= d.reservationId;
    if (Array.isArray(d.holds)) holds.push(...d.holds);
  }
  const stock = reservationId ? await parts.catalog.reservation(reservationId, holds) : [];
  return inLogOrder([payment, stock, order]);
}

/** An order's history (its payment stream, its stock reservation, its order stream); null for an unknown order. */
export async function orderHistory(parts: OrderHistoryParts, orderNumber: string): Promise<HistoryEntry[] | null> {
  const order = await parts.order.order(orderNumber);
  if (order.length === 0) return null;
  const placed = order.find((e) => e.type === 'OrderPlaced');
  const razorpayOrderId = (placed?.data as { razorpayOrderId?: string } | undefined)?.razorpayOrderId;
  if (!razorpayOrderId) return inLogOrder([order]);
  return (await paymentHistory(parts, razorpayOrderId)) ?? inLogOrder([order]);
}

/** A product's stream and its stock streams (general and per size); null if it never existed. */
export async function productHistory(
  catalog: Pick<CatalogHistoryPort, 'product'>,
  productId: string,
): Promise<HistoryEntry[] | null> {
  const events = await catalog.product(productId);
  return events.length === 0 ? null : events;
}

/**
 * A user's account: the user stream, every e-mail claim stream it held, its testimonials (accounts) and its
 * address book (checkout); null if no account ever claimed the address.
 */
export async function userHistory(
  parts: { accounts: AccountsHistoryPort; checkout: Pick<CheckoutHistoryPort, 'addressBooks'> },
  email: string,
): Promise<HistoryEntry[] | null> {
  const { userIds, events } = await parts.accounts.user(email);
  if (userIds.length === 0) return null;
  return inLogOrder([events, await parts.checkout.addressBooks(userIds)]);
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
