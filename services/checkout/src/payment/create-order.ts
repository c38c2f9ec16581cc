import { randomUUID } from 'node:crypto';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { decidePayment, initialPaymentState, type PaymentCommand } from './decider.ts';
import { buyerOf, expiryOf, holdAndPrice, releaseHolds } from './hold-and-price.ts';
import { livePlaceBackstopMs } from '../buyer-limits/live-checkouts.ts';
import type { CheckoutRequest, PaymentPorts } from './ports.ts';
import { replaceCheckoutsOf } from '../settlement/settle-expired.ts';

/** What create-order answers (the seeds' shape for the Razorpay checkout widget). */
export interface CreatedOrder {
  id: string;
  amount: number;
  currency: 'INR';
  receipt: string;
  key_id: string;
}

/**
 * When an order created now lapses unpaid: soon (HOLD_BEFORE_DIALOG_SECONDS) until its buyer's payment dialog
 * opens (dialog-opened moves it to the full reservation time), so a checkout nobody pays for holds little.
 */
const heldUntilDialogOf = (p: Pick<PaymentPorts, 'reservationTtlMs' | 'holdBeforeDialogMs'>, now: Date): string =>
  new Date(now.getTime() + Math.min(p.holdBeforeDialogMs, p.reservationTtlMs)).toISOString();

/**
 * Create order: first replaces the buyer's earlier unpaid checkouts (their holds go back), then holds the
 * stock (a sold-out product is refused here, before checkout writes anything), takes one of the buyer's
 * live-checkout places (429 when they have too many unpaid checkouts open, or their address far too many),
 * holds the coupon use, prices the order, creates the provider order and records the payment order (group
 * commit) with the buyer's key. Everything is undone on failure. A crash in between leaves nothing held for
 * long: the catalog gives back a reservation nobody settles, and the place lapses by its backstop.
 */
export async function createOrder(p: PaymentPorts, req: CheckoutRequest): Promise<CreatedOrder> {
  const reservationId = randomUUID();
  const buyer = buyerOf(p, req);
  // A browser that came without its guest cookie has no earlier checkout: no query for one on a sale's hot path.
  if (!req.firstVisit) await replaceCheckoutsOf(p, buyer.key);
  const takePlace = async () => {
    const now = p.clock();
    // The place normally goes when the order is paid or expires; this is a backstop for a crash in between.
    const backstop = new Date(now.getTime() + livePlaceBackstopMs(p.reservationTtlMs));
    await p.liveCheckouts.take({ buyerKey: buyer.key, addressKey: buyer.addressKey }, reservationId, now, backstop);
  };
  let placeTaken = false;
  const givePlaceBack = async () => {
    if (!placeTaken) return;
    await p.liveCheckouts
      .release(reservationId)
      .catch((e: unknown) => p.logger.error({ err: e, reservationId }, 'could not give back a checkout place'));
  };
  let held: Awaited<ReturnType<typeof holdAndPrice>>;
  try {
    held = await holdAndPrice(p, req, reservationId, async () => {
      await takePlace();
      placeTaken = true;
    });
  } catch (err) {
    await givePlaceBack(); // e.g. the coupon was refused after the place was taken
    throw err;
  }
  try {
    const providerOrder = await p.provider.createOrder({
      amountPaise: held.totalPaise,
      currency: 'INR',
      receipt: req.receipt.slice(0, 40),
      notes: { reservationId },
    });
    const now = p.clock();
    const command: PaymentCommand = {
      type: 'CreatePaymentOrder',
      data: {
        ...held,
        razorpayOrderId: providerOrder.id,
        receipt: req.receipt,
        currency: 'INR',
        createdAt: now.toISOString(),
        expiresAt: heldUntilDialogOf(p, now),
        buyerKey: buyer.key,
      },
    };
    await p.newStreams.start(paymentStreamId(providerOrder.id), decidePayment(command, initialPaymentState()), {
      actor: req.customer.userId ?? 'guest',
      correlationId: reservationId,
    });
    // Found by the buyer's next checkout (to replace it) from now on.
    await p.liveCheckouts.attachOrder(reservationId, providerOrder.id);
    // No job per order: the expiry sweep (RECONCILE_JOB) settles every order whose hold has run out.
    return {
      id: providerOrder.id,
      amount: held.totalPaise,
      currency: 'INR',
      receipt: req.receipt,
      key_id: p.provider.keyId,
    };
  } catch (err) {
    await releaseHolds(p, held);
    await givePlaceBack();
    throw err;
  }
}

/**
 * The seeds' original flow: a provider order for the client's amount with no cart; the cart comes with
 * verify, where the server prices it (see price-at-verify). It holds nothing until then, so it keeps the full
 * reservation time (a slow UPI payment is not refunded for want of a dialog-opened call). Paid and never
 * placed, it is refunded when it lapses (settle-expired).
 */
export async function openOrder(
  p: PaymentPorts,
  input: { amountPaise: number; receipt: string; userId: string | null; buyerKey: string },
): Promise<CreatedOrder> {
  const providerOrder = await p.provider.createOrder({
    amountPaise: input.amountPaise,
    currency: 'INR',
    receipt: input.receipt.slice(0, 40),
  });
  const now = p.clock();
  const command: PaymentCommand = {
    type: 'OpenPaymentOrder',
    data: {
      razorpayOrderId: providerOrder.id,
      amountPaise: input.amountPaise,
      receipt: input.receipt,
      currency: 'INR',
      userId: input.userId,
      createdAt: now.toISOString(),
      expiresAt: expiryOf(p, now),
      buyerKey: input.buyerKey,
    },
  };
  await p.newStreams.start(paymentStreamId(providerOrder.id), decidePayment(command, initialPaymentState()), {
    actor: input.userId ?? 'guest',
  });
  return {
    id: providerOrder.id,
    amount: input.amountPaise,
    currency: 'INR',
    receipt: input.receipt,
    key_id: p.provider.keyId,
  };
}
