/**
 * Events of a stock stream: one per product and size (`stock-<productId>:<size>`), plus one for the
 * product's general quantity (`stock-<productId>`). `available` is what can still be sold; below 0 on a
 * stock the product's mode no longer sells from (off sale) while holds taken there are still live: minus
 * the units they hold, so their release brings it back to 0 and never puts a unit on sale.
 */
type StockKey = { productId: string; size: string | null };
export type StockLevelSet = { type: 'StockLevelSet'; data: StockKey & { available: number; at: string } };
/**
 * Units held for a checkout until its payment arrives or the reservation expires. `expiresAt` is the
 * catalog's own backstop: a hold nobody settled by then (its checkout crashed before recording it) is
 * released by the catalog's hold sweep. Absent on a re-hold that is committed at once.
 */
export type StockReserved = {
  type: 'StockReserved';
  data: StockKey & { reservationId: string; quantity: number; at: string; expiresAt?: string };
};
/**
 * Held units left the hold (reservation expired or the checkout failed) and came back to this stock: on
 * sale again if the stock is on sale, else into its negative level (an off-sale stock, see SetStockLevel's
 * `offSale`: the units are retired, never on sale). `movedTo`: the hold was not given up but moved to
 * another stock of the product (a switch from sizes to one count), which took it over with a StockReserved
 * of the same hold id; its units come back here only to leave with the level the switch set.
 */
export type StockReleased = {
  type: 'StockReleased';
  data: StockKey & {
    reservationId: string;
    quantity: number;
    reason: string;
    at: string;
    movedTo?: { size: string | null };
    /**
     * The order was cancelled: its units come back, sold (StockCommitted) or still held, and the hold is
     * never sold again (a late commit does nothing).
     */
    returned?: 'sold' | 'held';
  };
};
/** Held units were paid for: a sale. */
export type StockCommitted = {
  type: 'StockCommitted';
  data: StockKey & { reservationId: string; quantity: number; at: string };
};
export type StockEvent = StockLevelSet | StockReserved | StockReleased | StockCommitted;

export const stockStreamId = (productId: string, size: string | null) =>
  size === null ? `stock-${productId}` : `stock-${productId}:${size}`;
