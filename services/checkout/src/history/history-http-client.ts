import type { CheckoutHistoryPort, HistoryEntry } from '@shop/shared/contracts/event-history';
import { historyPartOverHttp } from '@shop/shared/audit/history-http';
import { PAYMENT_HISTORY_PATH } from './history-api.ts';

/** Checkout's part of an order's history over HTTP to the checkout service (distributed mode). */
export class CheckoutHistoryHttpClient implements Pick<CheckoutHistoryPort, 'payment'> {
  constructor(
    private readonly baseUrl: string,
    private readonly serviceToken: string,
  ) {}

  payment(razorpayOrderId: string): Promise<HistoryEntry[]> {
    return historyPartOverHttp(`${this.baseUrl}${PAYMENT_HISTORY_PATH}`, this.serviceToken, { razorpayOrderId });
  }
}
