import { z } from 'zod';
import { routeOf } from '@shop/shared/http/route-table';
import type { Inventory } from './inventory.ts';

const Line = z.object({
  productId: z.string().min(1).max(64),
  size: z.string().max(20).nullable(),
  color: z.string().max(100).nullable(),
  quantity: z.number().int().min(1).max(1000),
});
const ReservationId = z.string().min(1).max(100);
export const ReserveBody = z.object({ reservationId: ReservationId, lines: z.array(Line).min(1).max(50) });
export const SettleBody = z.object({ reservationId: ReservationId, reason: z.string().max(100).optional() });

const route = routeOf<{ inventory: Inventory }>('catalog');
const INTERNAL = { 401: 'Service token required', 403: 'Internal route' } as const;

/** /internal/inventory/*: the InventoryPort over HTTP, for checkout running as its own process. */
export const INVENTORY_ROUTES = [
  route({
    method: 'post',
    path: '/internal/inventory/reserve',
    auth: 'service',
    summary: 'Hold stock for a checkout (service token)',
    body: ReserveBody,
    responses: { 200: 'The reservation', 400: 'Bad input', ...INTERNAL, 409: 'Not enough stock' },
    handler:
      ({ inventory }) =>
      async (_req, res, { body }) => {
        res.json(await inventory.reserve(body.reservationId, body.lines));
      },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/release',
    auth: 'service',
    summary: "Release a checkout's stock hold (service token)",
    body: SettleBody,
    responses: { 200: '{ok: true}', 400: 'Bad input', ...INTERNAL },
    handler:
      ({ inventory }) =>
      async (_req, res, { body }) => {
        await inventory.release(body.reservationId, body.reason);
        res.json({ ok: true });
      },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/commit',
    auth: 'service',
    summary: "Commit a paid checkout's stock hold (service token)",
    body: SettleBody,
    responses: {
      200: '{ok: true}',
      400: 'Bad input',
      ...INTERNAL,
      409: 'No such reservation, or not enough stock',
    },
    handler:
      ({ inventory }) =>
      async (_req, res, { body }) => {
        await inventory.commit(body.reservationId);
        res.json({ ok: true });
      },
  }),
  route({
    method: 'post',
    path: '/internal/inventory/return',
    auth: 'service',
    summary: "Return a cancelled order's stock (service token)",
    body: SettleBody,
    responses: { 200: '{ok: true}', 400: 'Bad input', ...INTERNAL },
    handler:
      ({ inventory }) =>
      async (_req, res, { body }) => {
        await inventory.returnSale(body.reservationId, body.reason);
        res.json({ ok: true });
      },
  }),
];
