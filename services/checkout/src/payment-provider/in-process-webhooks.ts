import { AppError, httpStatusOf } from '@shop/shared/errors/errors';
import type { Logger } from '@shop/shared/observability/logger';
import type { WebhookDelivery } from '@shop/razorpay-sandbox';
import { receiveWebhook, type PaymentPorts, type WebhookAnswer } from '../payment/api.ts';

export type { WebhookAnswer } from '../payment/api.ts';

/** The shop refused an in-process delivery (what a non-2xx answer is over HTTP): the sandbox retries it. */
export class WebhookNotTakenError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`webhook not taken (${status}): ${message}`);
    this.name = 'WebhookNotTakenError';
  }
}

/**
 * Takes the sandbox's webhooks in process, when the sandbox runs in the shop's process: each delivery goes
 * through `receiveWebhook`, the one definition the HTTP route's handler calls too (signature check, the
 * webhook_events claim that de-duplicates, the processing and its outcome), with the raw body and the two
 * Razorpay headers' values the HTTP route would have read. What is skipped is only the trip through a
 * socket, node's HTTP server and express. A refusal (bad signature, event still being processed, database
 * down) rejects with the status the route would answer, so the sandbox's sender retries it as it retries a
 * non-2xx answer.
 */
export function inProcessWebhookReceiver(
  ports: PaymentPorts,
  logger: Logger,
): (delivery: WebhookDelivery) => Promise<WebhookAnswer> {
  return async ({ raw, signature, eventId }) => {
    let answer: WebhookAnswer;
    try {
      answer = await receiveWebhook(ports, { raw, signature, eventId });
    } catch (err) {
      if (err instanceof AppError) throw new WebhookNotTakenError(httpStatusOf[err.kind], err.message);
      // What the HTTP error handler logs as 'unhandled error' before answering 500.
      logger.error({ err }, 'in-process webhook failed');
      throw new WebhookNotTakenError(500, err instanceof Error ? err.message : String(err));
    }
    if (answer.status < 200 || answer.status > 299) {
      throw new WebhookNotTakenError(answer.status, JSON.stringify(answer.body));
    }
    return answer;
  };
}
