/**
 * The benchmark's buyers over HTTP with undici's Client (the library Node's fetch is built on, without fetch's
 * WHATWG streams and Response objects): the load generator should cost the machine as little as it can, so
 * that the CPU a run measures is the shop's.
 *
 * Connections: a shopper is one browser on an address of its own (fromBuyer's x-forwarded-for). It opens one
 * connection of its own, keeps it alive across its own requests (create-order, the sandbox pay, verify) and
 * closes it when done; no two shoppers share a connection. A `keepAlive` shopper (the sustained run's 64
 * callers) keeps its one connection for every order it places.
 */
import { Client } from 'undici';
import { fromBuyer, guestOrder } from '@shop/test-support/purchase';
import type { SandboxPaymentResponse } from '../../services/razorpay-sandbox/src/razorpay-sandbox.ts';

export const CONNECTIONS =
  'undici Client; one connection per buyer, kept alive across its own create-order, pay and verify, then closed';

const json = { 'content-type': 'application/json' };

export interface Answer {
  status: number;
  body: string;
}

let seq = 0;

/** One shopper: buyer number `n` (its own address, name and phone), one connection to `origin`. */
export class Shopper {
  readonly n = seq++;
  private readonly client: Client;
  private readonly headers: Record<string, string>;

  constructor(origin: string) {
    this.client = new Client(origin, { pipelining: 1 });
    this.headers = { ...json, ...fromBuyer(this.n) };
  }

  async post(path: string, body: string, headers = this.headers): Promise<Answer> {
    const r = await this.client.request({ path, method: 'POST', headers, body });
    return { status: r.statusCode, body: await r.body.text() };
  }

  /**
   * A guest create-order of one unit of `productId` by this shopper, or by `buyer` (a buyer of its own, from
   * its own address, on this connection: the sustained run's keep-alive callers place each order as a new buyer).
   */
  createOrder(productId: string, buyer?: number): Promise<Answer> {
    const n = buyer ?? this.n;
    const body = guestOrder(`bench_${n}`, n, [{ productId, quantity: 1 }], { couponCode: null });
    const headers = buyer === undefined ? this.headers : { ...json, ...fromBuyer(buyer) };
    return this.post('/api/payment/create-order', JSON.stringify(body), headers);
  }

  /** A number for a buyer of its own (see createOrder). */
  static nextBuyer(): number {
    return seq++;
  }

  /**
   * Pays a sandbox order as the shopper's payment dialog does: the sandbox's own endpoint (as sandboxPay of
   * @shop/razorpay-sandbox calls it, here on this shopper's connection). Throws unless it answers a payment.
   */
  async pay(orderId: string): Promise<SandboxPaymentResponse> {
    const r = await this.post(`/razorpay-sandbox/v1/checkout/orders/${encodeURIComponent(orderId)}/pay`, '{}');
    const body = parsed(r.body) as Partial<SandboxPaymentResponse> | null;
    if (r.status !== 200 || !body?.razorpay_order_id || !body.razorpay_payment_id || !body.razorpay_signature)
      throw new Error(`sandbox pay of ${orderId}: ${r.status} ${r.body.slice(0, 300)}`);
    return {
      razorpay_order_id: body.razorpay_order_id,
      razorpay_payment_id: body.razorpay_payment_id,
      razorpay_signature: body.razorpay_signature,
    };
  }

  verify(paid: SandboxPaymentResponse): Promise<Answer> {
    return this.post('/api/payment/verify', JSON.stringify(paid));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** When each kind of answer came, in ms since `t0` (performance.now()). */
export class Timeline {
  readonly at = { refusal: [] as number[], createOrder: [] as number[], pay: [] as number[], verify: [] as number[] };
  constructor(private readonly t0: number) {}
  mark(kind: keyof Timeline['at']): void {
    this.at[kind].push(performance.now() - this.t0);
  }
}

/** How one buyer's attempt ended. */
export type Outcome = 'placed' | 'late' | 'refused' | 'error';

/**
 * One buyer's whole purchase on a connection of its own: create-order; unless refused (409), the sandbox pay
 * and verify. `late` is a verify answered 202 (the order shown by push a moment later).
 */
export async function buy(origin: string, productId: string, timeline?: Timeline): Promise<Outcome> {
  const shopper = new Shopper(origin);
  try {
    const created = await shopper.createOrder(productId);
    if (created.status === 409) {
      timeline?.mark('refusal');
      return 'refused';
    }
    if (created.status !== 201) throw new Error(`create-order ${created.status} ${created.body.slice(0, 300)}`);
    timeline?.mark('createOrder');
    const paid = await shopper.pay((JSON.parse(created.body) as { id: string }).id);
    timeline?.mark('pay');
    const v = await shopper.verify(paid);
    if (v.status < 200 || v.status > 299) throw new Error(`verify ${v.status} ${v.body.slice(0, 300)}`);
    timeline?.mark('verify');
    return v.status === 202 ? 'late' : 'placed';
  } finally {
    await shopper.close();
  }
}
