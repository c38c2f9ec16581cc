import { createHmac, randomUUID } from 'node:crypto';
import type { ReservedLine } from '@shop/shared/contracts/inventory';
import type { PaymentOrderCreated } from '@shop/shared/contracts/payment-events';
import { RefusedError, ValidationError } from '@shop/shared/errors/errors';
import { orderTotalPaise } from './decider.ts';
import type { CheckoutRequest, PaymentPorts } from './ports.ts';

/** The order's lines from its holds: a cart line held from several sizes' stock (one hold id) is one line. */
export function orderLinesOf(holds: ReservedLine[]) {
  const byHold = new Map<string, ReservedLine>();
  for (const h of holds) {
    const seen = byHold.get(h.holdId);
    byHold.set(h.holdId, seen ? { ...seen, quantity: seen.quantity + h.quantity } : h);
  }
  return [...byHold.values()].map((l) => ({
    productId: l.productId,
    name: l.name,
    image: l.image,
    size: l.size,
    color: l.color,
    quantity: l.quantity,
    unitPricePaise: l.unitPricePaise,
    lineTotalPaise: l.unitPricePaise * l.quantity,
  }));
}

/** An order priced from the server's own data, with the stock and coupon holds taken for it. */
export type HeldOrder = Omit<
  PaymentOrderCreated['data'],
  'razorpayOrderId' | 'receipt' | 'currency' | 'createdAt' | 'expiresAt'
>;

/** When an order created now lapses if unpaid. */
export const expiryOf = (p: Pick<PaymentPorts, 'reservationTtlMs'>, now: Date): string =>
  new Date(now.getTime() + p.reservationTtlMs).toISOString();

/**
 * Who is buying: the buyer key (the account, else the browser's signed guest identity) and the client
 * address, kept as a keyed hash so that checkout's tables hold no addresses. A guest's e-mail (chosen by the
 * caller) is an extra key for the one-coupon-hold rule only, hashed too.
 */
export function buyerOf(
  p: Pick<PaymentPorts, 'keySecret'>,
  req: CheckoutRequest,
): { key: string; addressKey: string; couponKeys: string[] } {
  const tag = (value: string) =>
    createHmac('sha256', p.keySecret).update(`buyer|${value}`).digest('base64url').slice(0, 22);
  const addressKey = `ip:${tag(req.clientAddressKey)}`;
  if (req.customer.userId) return { key: req.buyerKey, addressKey, couponKeys: [req.buyerKey] };
  return {
    key: req.buyerKey,
    addressKey,
    couponKeys: [req.buyerKey, `email:${tag(req.customer.email.trim().toLowerCase())}`],
  };
}

/**
 * Admits the checkout to its coupon (refused at once when it cannot be used), holds the stock (the catalog's
 * reservation), then, once `afterStock` has passed (the buyer's checkout cap), the coupon use, and prices the
 * order from the server's data. Every hold is undone on failure. Stock comes before the coupon's hold: a
 * sold-out product refuses at once, before checkout writes anything.
 */
export async function holdAndPrice(
  p: PaymentPorts,
  req: CheckoutRequest,
  reservationId: string = randomUUID(),
  afterStock?: () => Promise<void>,
): Promise<HeldOrder & { reservationId: string }> {
  // A coupon that cannot be used refuses before any stock is held (issue 27 defect 6: a coupon race's losers
  // held stock for a moment, and others were told a false 'only has 0 item(s) available').
  const admitted = req.couponCode
    ? await p.coupons.admitUse({ code: req.couponCode, buyers: buyerOf(p, req).couponKeys })
    : null;
  try {
    return await holdAndPriceAdmitted(p, req, reservationId, afterStock, () => admitted?.done());
  } finally {
    admitted?.done(); // idempotent: refused before its use was held
  }
}

async function holdAndPriceAdmitted(
  p: PaymentPorts,
  req: CheckoutRequest,
  reservationId: string,
  afterStock: (() => Promise<void>) | undefined,
  /** The coupon's use is held (or refused): the admission stops counting from now. */
  couponSettled: () => void,
): Promise<HeldOrder & { reservationId: string }> {
  const held = await p.inventory.reserve(reservationId, req.lines);
  if (!held.ok) throw new RefusedError(held.title, held.message);
  let couponCode: string | null = null;
  try {
    await afterStock?.();
    const lines = orderLinesOf(held.lines);
    const subtotalPaise = lines.reduce((sum, l) => sum + l.lineTotalPaise, 0);
    let discountPaise = 0;
    if (req.couponCode) {
      const use = await p.coupons
        .reserveUse({
          code: req.couponCode,
          reservationId,
          orderTotalPaise: subtotalPaise,
          buyers: buyerOf(p, req).couponKeys,
          heldUntil: expiryOf(p, p.clock()),
        })
        .finally(couponSettled);
      couponCode = use.code;
      discountPaise = use.discountPaise;
    }
    // Checkout quotes delivery on the subtotal after discount (seed 000 section 7).
    const charges = await p.delivery.quote(Math.max(0, subtotalPaise - discountPaise));
    const priced = {
      subtotalPaise,
      discountPaise,
      shippingChargePaise: charges.shippingChargePaise,
      deliveryChargePaise: charges.deliveryChargePaise,
    };
    const totalPaise = orderTotalPaise(priced);
    if (totalPaise < 100) throw new ValidationError('Order total must be at least ₹1.00');
    return {
      reservationId,
      holds: held.lines,
      customer: req.customer,
      address: req.address,
      pincode: req.pincode,
      lines,
      couponCode,
      ...priced,
      totalPaise,
    };
  } catch (err) {
    await releaseHolds(p, { reservationId, couponCode });
    throw err;
  }
}

/** Gives back an order's stock reservation and coupon use (each idempotent); failures are logged. */
export async function releaseHolds(
  p: Pick<PaymentPorts, 'inventory' | 'coupons' | 'logger'>,
  h: { reservationId: string; couponCode: string | null },
): Promise<void> {
  await p.inventory
    .release(h.reservationId)
    .catch((e: unknown) => p.logger.error({ err: e, reservationId: h.reservationId }, 'could not release stock holds'));
  if (h.couponCode) {
    await p.coupons
      .releaseUse(h.couponCode, h.reservationId)
      .catch((e: unknown) =>
        p.logger.error({ err: e, reservationId: h.reservationId }, 'could not release coupon use'),
      );
  }
}
