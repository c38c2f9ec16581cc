import { describe, expect, it } from 'vitest';
import { waitUntil } from '@shop/test-support/wait-until';
import { verifyWebhookSignature } from './signatures.ts';
import type { SandboxPayment } from './sandbox-ledger.ts';
import { createWebhookSender, webhookBody, type WebhookDelivery } from './webhooks.ts';

const secret = 'whsec_unit';
const payment = { id: 'pay_Unit000000001', order_id: 'order_Unit00000001', amount: 100 } as SandboxPayment;
const body = (event: 'payment.captured' | 'order.paid') =>
  webhookBody({ event, accountId: 'acc_Unit', payment, now: new Date() });

describe('webhook sender with an in-process transport', () => {
  it('hands each event over after send returns, in order, signed, and retries a refusal with the same event id and body', async () => {
    const handed: WebhookDelivery[] = [];
    let refuseNext = true;
    const sender = createWebhookSender({
      secret,
      target: 'in-process',
      firstRetryDelayMs: 1,
      transport: async (delivery) => {
        handed.push(delivery);
        if (refuseNext) {
          refuseNext = false;
          throw new Error('event still being processed');
        }
      },
    });
    sender.send([body('payment.captured'), body('order.paid')]);
    expect(handed).toEqual([]); // nothing runs inside the caller (the payment's answer goes first)
    await waitUntil(async () => handed.length === 3, 'three hand-overs');
    await sender.close();

    const events = handed.map((d) => (JSON.parse(d.raw) as { event: string }).event);
    expect(events).toEqual(['payment.captured', 'payment.captured', 'order.paid']);
    expect(handed[1]).toEqual(handed[0]); // the retry: same event id, same bytes, same signature
    expect(handed[2]!.eventId).not.toBe(handed[0]!.eventId);
    for (const d of handed) expect(verifyWebhookSignature(d.raw, d.signature, secret)).toBe(true);
  });

  it('gives up after the attempts it is given', async () => {
    let tries = 0;
    const sender = createWebhookSender({
      secret,
      target: 'in-process',
      attempts: 3,
      firstRetryDelayMs: 1,
      transport: async () => {
        tries++;
        throw new Error('refused');
      },
    });
    sender.send([body('order.paid')]);
    await waitUntil(async () => tries === 3, 'three tries');
    await sender.close();
    expect(tries).toBe(3);
  });
});
