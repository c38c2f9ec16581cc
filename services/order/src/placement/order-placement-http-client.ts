import {
  ORDER_OF_PAYMENT_DEFAULT_WAIT_MS,
  type OrderPlacementPort,
  type VerifiedPaymentRef,
} from '@shop/shared/contracts/order-placement';
import { UnavailableError } from '@shop/shared/errors/errors';
import { boundedWaitMs } from './order-placement-port.ts';

/** Time allowed on top of the wait itself for the request and its answer to travel. */
const TRANSPORT_GRACE_MS = 3000;

/** How long checkout waits for fresh order numbers before it records a payment without one. */
const ORDER_NUMBERS_TIMEOUT_MS = 2000;

/**
 * OrderPlacementPort over HTTP to the order service (distributed mode): POST /internal/orders/order-numbers and
 * /internal/orders/order-of-payment with a service token. The payment is already recorded when verify asks
 * order-of-payment, so an order service that is unreachable, starting or failing, or that answers too late,
 * means "not shown yet" (null, logged): the shopper is told the order will appear shortly. A refusal (400,
 * 401, 403, 404) is a wiring mistake and throws.
 */
export class OrderPlacementHttpClient implements OrderPlacementPort {
  constructor(
    private readonly baseUrl: string,
    private readonly serviceToken: string,
    private readonly logger?: { warn(obj: object, msg: string): void },
  ) {}

  async orderOfPayment(
    payment: VerifiedPaymentRef,
    timeoutMs = ORDER_OF_PAYMENT_DEFAULT_WAIT_MS,
  ): Promise<string | null> {
    const wait = boundedWaitMs(timeoutMs);
    const { razorpayOrderId, paymentStreamId, paymentStreamVersion } = payment;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.baseUrl}/internal/orders/order-of-payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.serviceToken}` },
        body: JSON.stringify({ razorpayOrderId, paymentStreamId, paymentStreamVersion, timeoutMs: wait }),
        signal: AbortSignal.timeout(wait + TRANSPORT_GRACE_MS),
      });
      text = await res.text();
    } catch (err) {
      this.logger?.warn({ err: String(err), razorpayOrderId }, 'order service did not answer order-of-payment');
      return null;
    }
    const parsed = (() => {
      try {
        return JSON.parse(text) as { orderNumber?: unknown; message?: string };
      } catch {
        return { message: text };
      }
    })();
    if (res.ok) {
      if (parsed.orderNumber === null || typeof parsed.orderNumber === 'string') return parsed.orderNumber;
      throw new UnavailableError('The order service answered order-of-payment without an order number');
    }
    if (res.status >= 500) {
      this.logger?.warn({ status: res.status, razorpayOrderId }, 'order service failed order-of-payment');
      return null;
    }
    throw new UnavailableError(
      `The order service refused order-of-payment (${res.status}): ${parsed.message ?? 'no message'}`,
    );
  }

  /** Throws UnavailableError when the order service does not answer, fails or refuses. */
  async allocateOrderNumbers(count: number): Promise<string[]> {
    let res: Response;
    let body: { orderNumbers?: unknown; message?: string };
    try {
      res = await fetch(`${this.baseUrl}/internal/orders/order-numbers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.serviceToken}` },
        body: JSON.stringify({ count }),
        signal: AbortSignal.timeout(ORDER_NUMBERS_TIMEOUT_MS),
      });
      body = (await res.json()) as typeof body;
    } catch (err) {
      throw new UnavailableError(`The order service did not answer order-numbers: ${String(err)}`);
    }
    const numbers = body.orderNumbers;
    if (!res.ok || !Array.isArray(numbers) || !numbers.every((n) => typeof n === 'string'))
      throw new UnavailableError(
        `The order service refused order-numbers (${res.status}): ${body.message ?? 'no order numbers'}`,
      );
    return numbers as string[];
  }
}
