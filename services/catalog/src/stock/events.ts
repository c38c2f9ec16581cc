/**
 * Events of a stock stream: one per product and size (`stock-<productId>:<size>`), plus one for the
 * product's general quantity (`stock-<productId>`). `available` is what can still be sold.
 */
export type StockLevelSet = {
  type: 'StockLevelSet';
  data: { productId: string; size: string | null; available: number; at: string };
};
export type StockEvent = StockLevelSet;

export const stockStreamId = (productId: string, size: string | null) =>
  size === null ? `stock-${productId}` : `stock-${productId}:${size}`;
