import { z } from 'zod';
import type { CatalogHistoryPort } from '@shop/shared/contracts/event-history';
import { routeOf } from '@shop/shared/http/route-table';

export const RESERVATION_HISTORY_PATH = '/internal/inventory/reservation-history';

export const ReservationHistoryBody = z.object({
  reservationId: z.string().min(1).max(100),
  holds: z.array(z.object({ productId: z.string().min(1).max(64), stockSize: z.string().max(20).nullable() })).max(200),
});

const route = routeOf<{ history: Pick<CatalogHistoryPort, 'reservation'> }>('catalog');

/**
 * The catalog's part of an order's history over HTTP, for the order service running as its own process:
 * `{events}` of a stock reservation.
 */
export const CATALOG_HISTORY_ROUTES = [
  route({
    method: 'post',
    path: RESERVATION_HISTORY_PATH,
    auth: 'service',
    summary: "A stock reservation's events, for an order's history (service token)",
    body: ReservationHistoryBody,
    responses: { 200: '{events}', 400: 'Bad input', 401: 'Service token required', 403: 'Internal route' },
    handler:
      ({ history }) =>
      async (_req, res, { body: { reservationId, holds } }) => {
        res.json({ events: await history.reservation(reservationId, holds) });
      },
  }),
];
