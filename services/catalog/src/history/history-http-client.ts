import type { CatalogHistoryPort, HistoryEntry, HoldRef } from '@shop/shared/contracts/event-history';
import { historyPartOverHttp } from '@shop/shared/audit/history-http';
import { RESERVATION_HISTORY_PATH } from './history-api.ts';

/** The catalog's part of an order's history over HTTP to the catalog service (distributed mode). */
export class CatalogHistoryHttpClient implements Pick<CatalogHistoryPort, 'reservation'> {
  constructor(
    private readonly baseUrl: string,
    private readonly serviceToken: string,
  ) {}

  reservation(reservationId: string, holds: HoldRef[]): Promise<HistoryEntry[]> {
    return historyPartOverHttp(`${this.baseUrl}${RESERVATION_HISTORY_PATH}`, this.serviceToken, {
      reservationId,
      holds,
    });
  }
}
