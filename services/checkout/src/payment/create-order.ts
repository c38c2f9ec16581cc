import { randomUUID } from 'node:crypto';
import { paymentStreamId } from '@shop/shared/contracts/payment-events';
import { decidePayment, initialPaymentState, type PaymentCommand } from './decider.ts';
import { buyerOf, expiryOf, holdAndPrice, releaseHolds } from './hold-and-price.ts';
import { livePlaceBackstopMs } from './live-checkouts.ts';
import type { CheckoutRequest, PaymentPorts } from './ports.ts';

/** What create-order answers (the seeds' shape for the Razorpay checkout widget). */
export interface CreatedOrder {
  id: string;
  amount: number;
  currency: 'INR';
  receipt: string;
  key_id: string;
}

/**
 * Create order: holds the stock (a sold-out product is refused here, before checkout writes anything),
 * takes one of the buyer's live-checkout places (429 when they have too many unpaid checkouts open), holds
 * the coupon use, prices the order, creates the provider order and records the payment order (group
 * commit). Everything is undone on failure. A crash in between leaves nothing held for long: the catalog
 * gives back a reservation nobody settles, and the place lapses by its backstop.
 */
export async function createOrder(p: PaymentPorts, req: CheckoutRequest): Promise<CreatedOrder> {
  const reservationId = randomUUID();
  const takePlace = async () => {
    const now = p.clock();
    // The place normally goes when the order is paid or expires; this is a backstop for a crash in between.
    const backstop = new Date(now.getTime() + livePlaceBackstopMs(p.reservationTtlMs));
    await p.liveCheckouts.take(buyerOf(p, req).key, reservationId, now, backstop);
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
        expiresAt: expiryOf(p, now),
      },
    };
    await p.newStreams.start(paymentStreamId(providerOrder.id), decidePayment(command, initialPaymentState()), {
      actor: req.customer.userId ?? 'guest',
      correlationId: reservationId,
    });
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
 * verify, where the server prices it (see price-at-verify).
 */
export async function openOrder(
  p: PaymentPorts,
  input: { amountPaise: number; receipt: string; userId: string | null },
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
