import type { Pool } from 'pg';
import { readHistory } from '@shop/shared/audit/history-reader';
import type { OrderHistoryPort } from '@shop/shared/contracts/event-history';
import { orderStreamId } from '../order/events.ts';
import { orderMailsStreamId } from '../mail/events.ts';

const SCHEMA = 'orders';

/** The order service's parts of histories, read from its own log: an order's stream and the e-mails sent about it. */
export function orderHistoryPart(pool: Pool): OrderHistoryPort {
  const order = (orderNumber: string) =>
    readHistory(pool, SCHEMA, 'stream_id = ANY($1)', [[orderStreamId(orderNumber), orderMailsStreamId(orderNumber)]]);
  return {
    order,
    async orderOfPayment(razorpayOrderId) {
      const placed = await readHistory(pool, SCHEMA, `type = 'OrderPlaced' AND data->>'razorpayOrderId' = $1`, [
        razorpayOrderId,
      ]);
      const orderNumber = (placed[0]?.data as { orderNumber?: string } | undefined)?.orderNumber;
      return orderNumber ? order(orderNumber) : [];
    },
  };
}
