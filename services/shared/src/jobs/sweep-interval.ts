/**
 * How often a sweep of lapsed holds runs (checkout's expiry and orphan sweeps, the catalog's hold backstop):
 * a quarter of the hold, so one lapses at most a quarter late, between 1 and 30 seconds.
 */
export const sweepEveryMs = (holdSeconds: number) =>
  Math.min(30_000, Math.max(1_000, Math.round((holdSeconds * 1000) / 4)));
