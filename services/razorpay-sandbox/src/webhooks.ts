import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@shop/shared/observability/logger';
import { delayFor } from '@shop/shared/retry/retry';
import { webhookSignature } from './signatures.ts';
import { razorpayId, type SandboxOrder, type SandboxPayment } from './sandbox-ledger.ts';

export type SandboxWebhookEvent = 'payment.captured' | 'payment.failed' | 'order.paid';

/** A webhook body as Razorpay sends it. */
export interface RazorpayWebhookBody {
  entity: 'event';
  account_id: string;
  event: SandboxWebhookEvent;
  contains: Array<'payment' | 'order'>;
  payload: { payment: { entity: SandboxPayment }; order?: { entity: SandboxOrder } };
  created_at: number;
}

export function webhookBody(input: {
  event: SandboxWebhookEvent;
  accountId: string;
  payment: SandboxPayment;
  order?: SandboxOrder;
  now: Date;
}): RazorpayWebhookBody {
  return {
    entity: 'event',
    account_id: input.accountId,
    event: input.event,
    contains: input.order ? ['payment', 'order'] : ['payment'],
    payload: { payment: { entity: input.payment }, ...(input.order ? { order: { entity: input.order } } : {}) },
    created_at: Math.floor(input.now.getTime() / 1000),
  };
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  logger?: Logger | undefined;
  /** Tries per event, the first included (bounded: Razorpay retries for a day, a sandbox need not). */
  attempts?: number;
  /** Wait before the first retry; it doubles for each later one. */
  firstRetryDelayMs?: number;
  timeoutMs?: number;
}

/**
 * Delivers webhooks in the background, signed like Razorpay's (`X-Razorpay-Signature` over the raw body,
 * a unique `x-razorpay-event-id` that stays the same across retries of one event). The events handed to
 * one `send` go out in order, each after the one before has been delivered or given up on.
 */
export function createWebhookSender(opts: WebhookSenderOptions) {
  const attempts = opts.attempts ?? 5;
  const firstRetryDelayMs = opts.firstRetryDelayMs ?? 250;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const stop = new AbortController();
  const inFlight = new Set<Promise<void>>();

  async function deliver(body: RazorpayWebhookBody): Promise<void> {
    const raw = JSON.stringify(body);
    const eventId = razorpayId();
    const headers = {
      'content-type': 'application/json',
      'x-razorpay-signature': webhookSignature(raw, opts.secret),
      'x-razorpay-event-id': eventId,
    };
    for (let attempt = 1; attempt <= attempts && !stop.signal.aborted; attempt++) {
      try {
        const res = await fetch(opts.url, {
          method: 'POST',
          headers,
          body: raw,
          signal: AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        opts.logger?.debug({ event: body.event, eventId, attempt, status: res.status }, 'sandbox webhook refused');
      } catch (err) {
        if (stop.signal.aborted) return;
        opts.logger?.debug({ event: body.event, eventId, attempt, err }, 'sandbox webhook not delivered');
      }
      if (attempt < attempts) {
        await delay(delayFor({ baseMs: firstRetryDelayMs }, attempt), undefined, { signal: stop.signal }).catch(
          () => undefined,
        );
      }
    }
    if (!stop.signal.aborted) {
      opts.logger?.warn({ event: body.event, eventId, url: opts.url, attempts }, 'sandbox webhook given up');
    }
  }

  return {
    /** Queues the events for delivery and returns at once. */
    send(bodies: RazorpayWebhookBody[]): void {
      const run = (async () => {
        for (const body of bodies) await deliver(body);
      })();
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    },
    /** Abandons pending deliveries and retries; resolves once none is running. */
    async close(): Promise<void> {
      stop.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
