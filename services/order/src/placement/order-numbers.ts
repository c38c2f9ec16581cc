import type pg from 'pg';
import { ORDER_NUMBER_PREFIX } from '../order/events.ts';

/**
 * `count` fresh order numbers from orders.order_number_seq (ORD-100001, ...), in one statement: the one place
 * order numbers are made, for checkout (through OrderPlacementPort.allocateOrderNumbers, to record them in
 * PaymentVerified) and for the placement of a PaymentVerified recorded without one. A number is never handed
 * out twice, even by a transaction that rolls back; one left unused is a gap.
 */
export async function allocateOrderNumbers(db: pg.Pool | pg.PoolClient, count: number): Promise<string[]> {
  if (count < 1) return [];
  const { rows } = await db.query<{ order_number: string }>(
    `SELECT $1 || nextval('orders.order_number_seq') AS order_number FROM generate_series(1, $2::int)`,
    [ORDER_NUMBER_PREFIX, count],
  );
  return rows.map((r) => r.order_number);
}
