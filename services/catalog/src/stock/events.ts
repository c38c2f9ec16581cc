/**
 * Events of a stock stream: one per product and size (`stock-<productId>:<size>`), plus one for the
 * product's general quantity (`stock-<productId>`). `available` is what can still be sold.
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
/** Held units went back on sale (reservation expired or the checkout failed). */
export type StockReleased = {
  type: 'StockReleased';
  data: StockKey & { reservationId: string; quantity: number; reason: string; at: string };
};
/** Held units were paid for: a sale. */
export type StockCommitted = {
  type: 'StockCommitted';
  data: StockKey & { reservationId: string; quantity: number; at: string };
};
export type StockEvent = StockLevelSet | StockReserved | StockReleased | StockCommitted;

export const stockStreamId = (productId: string, size: string | null) =>
  size === null ? `stock-${productId}` : `stock-${productId}:${size}`;
