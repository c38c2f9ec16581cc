import type { Pool } from 'pg';
import { readHistory } from '@shop/shared/audit/history-reader';
import type { CheckoutHistoryPort } from '@shop/shared/contracts/event-history';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { addressBookStreamId } from '../addresses/address-book/events.ts';

const SCHEMA = 'checkout';

/** Checkout's parts of histories, read from its own log. */
export function checkoutHistory(pool: Pool): CheckoutHistoryPort {
  return {
    payment: (razorpayOrderId) => readHistory(pool, SCHEMA, 'stream_id = $1', [paymentStreamId(razorpayOrderId)]),
    addressBooks: (userIds) => readHistory(pool, SCHEMA, 'stream_id = ANY($1)', [userIds.map(addressBookStreamId)]),
  };
}
