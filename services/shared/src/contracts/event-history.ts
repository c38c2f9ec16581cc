/**
 * Histories for auditors and on-call engineers are composed from parts each service serves of its own log:
 * the catalog a stock reservation's events and a product's, checkout a payment's and an address book's, the
 * order service an order's, accounts a user's. In-process in the all-in-one gateway and in `npm run audit`;
 * over HTTP (the owning service's /internal routes, never forwarded by the gateway) when services run apart.
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

/** A stock hold of a payment, as its events record it: whose stock (a size's, or the general quantity). */
export interface HoldRef {
  productId: string;
  stockSize: string | null;
}

/** The catalog's parts. Each answers its events in commit order ([] when there are none). */
export interface CatalogHistoryPort {
  /** The stock events of a reservation (hold ids `<reservationId>#<line>`), narrowed to the holds' streams when known. */
  reservation(reservationId: string, holds: HoldRef[]): Promise<HistoryEntry[]>;
  /** A product's stream and its stock streams (general and per size), in log order. */
  product(productId: string): Promise<HistoryEntry[]>;
}

/** Checkout's parts. */
export interface CheckoutHistoryPort {
  /** The payment stream of a provider order. */
  payment(razorpayOrderId: string): Promise<HistoryEntry[]>;
  /** The address books of these users. */
  addressBooks(userIds: string[]): Promise<HistoryEntry[]>;
}

/** The order service's parts. */
export interface OrderHistoryPort {
  /** An order's stream. */
  order(orderNumber: string): Promise<HistoryEntry[]>;
  /** The stream of the order placed from this provider order ([] if none was). */
  orderOfPayment(razorpayOrderId: string): Promise<HistoryEntry[]>;
}

/** The accounts service's part. */
export interface AccountsHistoryPort {
  /**
   * The users that ever claimed an e-mail address (none: no account), and their user streams, e-mail claim
   * streams and testimonials.
   */
  user(email: string): Promise<{ userIds: string[]; events: HistoryEntry[] }>;
}

/** What an order's history is made of: the reservation, the payment and the order. */
export interface OrderHistoryParts {
  catalog: Pick<CatalogHistoryPort, 'reservation'>;
  checkout: Pick<CheckoutHistoryPort, 'payment'>;
  order: OrderHistoryPort;
}
