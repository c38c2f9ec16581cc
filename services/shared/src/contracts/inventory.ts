/**
 * The catalog's inventory as checkout sees it: in-process in the all-in-one gateway, over HTTP
 * (catalog's /internal/inventory routes, never forwarded by the gateway) when services run apart.
 */

export interface ReserveLine {
  productId: string;
  size: string | null;
  color: string | null;
  quantity: number;
}

export interface ReservedLine extends ReserveLine {
  /**
   * The hold's id on its stock stream (`<reservationId>#<line index>`: two lines may share a stream). A line
   * with no size on a product sold by size may be held from several sizes: one entry per size, same hold id,
   * `quantity` the part taken from that size.
   */
  holdId: string;
  name: string;
  image: string;
  unitPricePaise: number;
  /**
   * Which stock was taken: the size's stock, or the product's general quantity (null). An admin's switch
   * of the product from sizes to one count moves live holds to the general quantity: settle by id alone.
   */
  stockSize: string | null;
}

/** A refusal carries the seeds' title and message ('Size not available', '{name} - Size M only has ...'). */
export type ReserveResult = { ok: true; lines: ReservedLine[] } | { ok: false; title: string; message: string };

/**
 * A reservation is the catalog's: it records which stock each line took and lapses on its own (the
 * catalog's sweep) if nobody settles it, so checkout settles it by its id alone.
 */
export interface InventoryPort {
  /** Validates and reserves every line, all or nothing; idempotent per reservationId. */
  reserve(reservationId: string, lines: ReserveLine[]): Promise<ReserveResult>;
  /** Returns the reservation's held units to stock (expiry, failure). Idempotent. */
  release(reservationId: string, reason?: string): Promise<void>;
  /** Turns the reservation into a sale. Idempotent. */
  commit(reservationId: string): Promise<void>;
  /**
   * Gives a cancelled order's units back to stock, sold or still held; the sale is returned and never made
   * again (a late commit does nothing). Idempotent.
   */
  returnSale(reservationId: string, reason?: string): Promise<void>;
}
