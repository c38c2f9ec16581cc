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

/** One signed delivery: the raw body, its signature and its event id (the same on every retry). */
export interface WebhookDelivery {
  raw: string;
  /** `X-Razorpay-Signature`: hex HMAC-SHA256 of `raw` with the webhook secret. */
  signature: string;
  /** `x-razorpay-event-id`. */
  eventId: string;
}

/**
 * Hands one delivery to the shop: resolves once the shop has taken it, rejects when it refused it or could
 * not be reached (the sender then retries). `signal` aborts a delivery still in flight when the sandbox closes.
 */
export type WebhookTransport = (delivery: WebhookDelivery, signal: AbortSignal) => Promise<void>;

/** Delivers by POSTing to `url` with Razorpay's headers, as Razorpay does (a shop in another process). */
export function httpWebhookTransport(url: string, timeoutMs = 5_000): WebhookTransport {
  return async ({ raw, signature, eventId }, signal) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signature,
        'x-razorpay-event-id': eventId,
      },
      body: raw,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new WebhookRefusedError(res.status);
  };
}

/** The shop answered a delivery with a status other than 2xx. */
export class WebhookRefusedError extends Error {
  constructor(readonly status: number) {
    super(`webhook refused with status ${status}`);
    this.name = 'WebhookRefusedError';
  }
}

export interface WebhookSenderOptions {
  /** How a delivery reaches the shop: over HTTP (httpWebhookTransport) or a call in process. */
  transport: WebhookTransport;
  /** Where the deliveries go, for the logs (a URL, or 'in-process'). */
  target: string;
  secret: string;
  logger?: Logger | undefined;
  /** Tries per event, the first included (bounded: Razorpay retries for a day, a sandbox need not). */
  attempts?: number;
  /** Wait before the first retry; it doubles for each later one. */
  firstRetryDelayMs?: number;
}

/**
 * Delivers webhooks in the background, signed like Razorpay's (`X-Razorpay-Signature` over the raw body,
 * a unique `x-razorpay-event-id` that stays the same across retries of one event). The events handed to
 * one `send` go out in order, each after the one before has been delivered or given up on. The first goes
 * out on a later turn of the event loop, never inside the caller (the payment's answer is sent first).
 */
export function createWebhookSender(opts: WebhookSenderOptions) {
  const attempts = opts.attempts ?? 5;
  const firstRetryDelayMs = opts.firstRetryDelayMs ?? 250;
  const stop = new AbortController();
  const inFlight = new Set<Promise<void>>();

  async function deliver(body: RazorpayWebhookBody): Promise<void> {
    const raw = JSON.stringify(body);
    const delivery: WebhookDelivery = { raw, signature: webhookSignature(raw, opts.secret), eventId: razorpayId() };
    const { eventId } = delivery;
    for (let attempt = 1; attempt <= attempts && !stop.signal.aborted; attempt++) {
      try {
        await opts.transport(delivery, stop.signal);
        return;
      } catch (err) {
        if (stop.signal.aborted) return;
        if (err instanceof WebhookRefusedError) {
          opts.logger?.debug({ event: body.event, eventId, attempt, status: err.status }, 'sandbox webhook refused');
        } else {
          opts.logger?.debug({ event: body.event, eventId, attempt, err }, 'sandbox webhook not delivered');
        }
      }
      if (attempt < attempts) {
        await delay(delayFor({ baseMs: firstRetryDelayMs }, attempt), undefined, { signal: stop.signal }).catch(
          () => undefined,
        );
      }
    }
    if (!stop.signal.aborted) {
      opts.logger?.warn({ event: body.event, eventId, target: opts.target, attempts }, 'sandbox webhook given up');
    }
  }

  return {
    /** Queues the events for delivery and returns at once. */
    send(bodies: RazorpayWebhookBody[]): void {
      const run = (async () => {
        await new Promise((resolve) => setImmediate(resolve));
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
