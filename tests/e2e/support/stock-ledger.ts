import type pg from 'pg';

/**
 * A product's units as its stock streams in catalog.events tell them (`stock-<id>` and `stock-<id>:<size>`),
 * folded hold by hold: `StockLevelSet` sets what is on sale; `StockReserved` moves units from available to
 * held (a hold, keyed by stream and reservationId); `StockReleased` moves a live hold back to available;
 * `StockCommitted` moves a live hold to sold. A release or commit of a hold that is not live, or of another
 * quantity than was held, is an anomaly (and breaks available + held + sold = the level set).
 */
export interface StockLedger {
  available: number;
  held: number;
  sold: number;
  /** How many stock events were folded. */
  events: number;
  /** Live holds (reserved, neither released nor committed). */
  liveHolds: string[];
  anomalies: string[];
}

type Hold = { quantity: number; status: 'reserved' | 'released' | 'committed' };

export async function stockLedger(db: pg.Client | pg.Pool, productId: string): Promise<StockLedger> {
  const { rows } = await db.query<{ stream_id: string; type: string; data: Record<string, unknown> }>(
    `SELECT stream_id, type, data FROM catalog.events
      WHERE stream_id = $1 OR stream_id LIKE $2
      ORDER BY stream_id, stream_version`,
    [`stock-${productId}`, `stock-${productId}:%`],
  );
  const ledger: StockLedger = { available: 0, held: 0, sold: 0, events: rows.length, liveHolds: [], anomalies: [] };
  const holds = new Map<string, Hold>();
  for (const { stream_id: stream, type, data } of rows) {
    const key = `${stream}/${String(data.reservationId)}`;
    const quantity = Number(data.quantity);
    const hold = holds.get(key);
    switch (type) {
      case 'StockLevelSet':
        // The admin's level replaces what is on sale; live holds and sales are kept apart from it.
        ledger.available = Number(data.available);
        break;
      case 'StockReserved':
        if (hold?.status === 'reserved') ledger.anomalies.push(`${key}: reserved twice`);
        if (hold?.status === 'committed') ledger.anomalies.push(`${key}: reserved again after its sale`);
        holds.set(key, { quantity, status: 'reserved' });
        ledger.available -= quantity;
        ledger.held += quantity;
        break;
      case 'StockReleased':
      case 'StockCommitted': {
        // A release moves the hold back to available, a commit to sold.
        const [ends, into, verb] =
          type === 'StockReleased'
            ? (['released', 'available', 'released'] as const)
            : (['committed', 'sold', 'sold'] as const);
        if (hold?.status === 'reserved' && hold.quantity === quantity) {
          hold.status = ends;
          ledger.held -= quantity;
        } else
          ledger.anomalies.push(
            `${key}: ${verb} ${quantity} while ${hold ? `${hold.status} ${hold.quantity}` : 'never held'}`,
          );
        ledger[into] += quantity; // a hold that was not live too, as the catalog's decider counts it
        break;
      }
      default:
        ledger.anomalies.push(`${stream}: unknown event ${type}`);
    }
  }
  ledger.liveHolds = [...holds].filter(([, h]) => h.status === 'reserved').map(([k]) => k);
  return ledger;
}

/**
 * Throws unless available + held + sold = stock, none of them is negative, and the fold found no anomaly:
 * the check made at every poll of the crash tests.
 */
export async function expectLedgerBalanced(
  db: pg.Client | pg.Pool,
  productId: string,
  stock: number,
  when: string,
): Promise<StockLedger> {
  const l = await stockLedger(db, productId);
  const problems: string[] = [];
  if (l.available + l.held + l.sold !== stock)
    problems.push(
      `available ${l.available} + held ${l.held} + sold ${l.sold} = ${l.available + l.held + l.sold}, not ${stock}`,
    );
  if (l.available < 0 || l.held < 0 || l.sold < 0) problems.push('a negative count');
  if (l.anomalies.length) problems.push(`anomalies: ${l.anomalies.slice(0, 10).join('; ')}`);
  if (problems.length)
    throw new Error(
      `stock ledger of product ${productId} unbalanced ${when} (${l.events} events): ${problems.join('; ')}`,
    );
  return l;
}
