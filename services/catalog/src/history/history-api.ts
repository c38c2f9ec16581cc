import { Router } from 'express';
import { z } from 'zod';
import { requireService } from '@shop/shared/auth/tokens';
import type { CatalogHistoryPort } from '@shop/shared/contracts/event-history';
import { route, type RouteSpec } from '@shop/shared/http/route-table';
import { parseInput } from '@shop/shared/http/validation';

export const RESERVATION_HISTORY_PATH = '/internal/inventory/reservation-history';

export const ReservationHistoryBody = z.object({
  reservationId: z.string().min(1).max(100),
  holds: z.array(z.object({ productId: z.string().min(1).max(64), stockSize: z.string().max(20).nullable() })).max(200),
});

/**
 * The catalog's part of an order's history over HTTP, for the order service running as its own process:
 * `{events}` of a stock reservation.
 */
export function catalogHistoryRouter(history: Pick<CatalogHistoryPort, 'reservation'>): Router {
  const r = Router();
  r.post(RESERVATION_HISTORY_PATH, requireService, async (req, res) => {
    const { reservationId, holds } = parseInput(ReservationHistoryBody, req.body ?? {});
    res.json({ events: await history.reservation(reservationId, holds) });
  });
  return r;
}

export const CATALOG_HISTORY_ROUTES: RouteSpec[] = [
  route({
    method: 'post',
    path: RESERVATION_HISTORY_PATH,
    auth: 'service',
    service: 'catalog',
    summary: "A stock reservation's events, for an order's history (service token)",
    body: ReservationHistoryBody,
    responses: { 200: '{events}', 400: 'Bad input', 401: 'Service token required', 403: 'Internal route' },
  }),
];
