import { Router } from 'express';
import { z } from 'zod';
import { requireService } from '@shop/shared/auth/tokens';
import { parseInput } from '@shop/shared/http/validation';
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

/** /internal/inventory/*: the InventoryPort over HTTP, for checkout running as its own process. */
export function inventoryRouter(inventory: Inventory): Router {
  const r = Router();
  r.post('/internal/inventory/reserve', requireService, async (req, res) => {
    const body = parseInput(ReserveBody, req.body);
    res.json(await inventory.reserve(body.reservationId, body.lines));
  });
  r.post('/internal/inventory/release', requireService, async (req, res) => {
    const body = parseInput(SettleBody, req.body);
    await inventory.release(body.reservationId, body.reason);
    res.json({ ok: true });
  });
  r.post('/internal/inventory/commit', requireService, async (req, res) => {
    const body = parseInput(SettleBody, req.body);
    await inventory.commit(body.reservationId);
    res.json({ ok: true });
  });
  return r;
}
