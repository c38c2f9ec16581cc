import { randomInt } from 'node:crypto';
import { SandboxError } from './razorpay-error.ts';

/** Razorpay's order entity, as the sandbox answers it. Amounts in paise, times in unix seconds. */
export interface SandboxOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: 'INR';
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  /** Razorpay answers `[]` for an order created without notes. */
  notes: Record<string, string | number> | [];
  created_at: number;
}

/** Razorpay's payment entity (card payments only: the sandbox dialog has no method picker). */
export interface SandboxPayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: 'INR';
  status: 'captured' | 'failed';
  order_id: string;
  invoice_id: null;
  international: false;
  method: 'card';
  amount_refunded: 0;
  refund_status: null;
  captured: boolean;
  description: string | null;
  card_id: null;
  bank: null;
  wallet: null;
  vpa: null;
  email: string;
  contact: string;
  notes: [];
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  acquirer_data: Record<string, string>;
  created_at: number;
}

export interface NewOrder {
  amount: number;
  receipt?: string | undefined;
  notes?: Record<string, string | number> | undefined;
}

export interface Payer {
  email?: string | undefined;
  contact?: string | undefined;
}

/** What the checkout dialog's `payment.failed` callbacks receive (and the fail endpoint answers). */
export interface PaymentFailure {
  error: {
    code: 'BAD_REQUEST_ERROR';
    description: string;
    source: string;
    step: string;
    reason: string;
    metadata: { order_id: string; payment_id: string };
  };
}

const FAILED_DESCRIPTION = 'Payment failed (sandbox)';
// The sandbox lives as long as its process; the cap keeps a long-running dev shop (or a benchmark run
// again and again) from growing without bound. The oldest orders go first.
const MAX_ORDERS = 100_000;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 14 random alphanumerics, the length of Razorpay's ids. */
export function razorpayId(prefix = ''): string {
  let id = prefix;
  for (let i = 0; i < 14; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

/**
 * The sandbox's orders and payments, in memory: it is a test double for Razorpay, so its state is lost on
 * restart, like the money it does not move. Every method answers copies, so callers cannot change it.
 */
export class SandboxLedger {
  private readonly orders = new Map<string, SandboxOrder>();
  private readonly payments = new Map<string, SandboxPayment>();
  private readonly paymentIdsByOrder = new Map<string, string[]>();

  constructor(private readonly now: () => Date) {}

  createOrder(input: NewOrder): SandboxOrder {
    const order: SandboxOrder = {
      id: razorpayId('order_'),
      entity: 'order',
      amount: input.amount,
      amount_paid: 0,
      amount_due: input.amount,
      currency: 'INR',
      receipt: input.receipt ?? null,
      offer_id: null,
      status: 'created',
      attempts: 0,
      notes: input.notes && Object.keys(input.notes).length ? { ...input.notes } : [],
      created_at: this.unixNow(),
    };
    this.orders.set(order.id, order);
    this.evictOldest();
    return clone(order);
  }

  order(id: string): SandboxOrder {
    return clone(this.findOrder(id));
  }

  paymentsOf(orderId: string): SandboxPayment[] {
    this.findOrder(orderId);
    return (this.paymentIdsByOrder.get(orderId) ?? []).map((id) => clone(this.payments.get(id)!));
  }

  payment(id: string): SandboxPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new SandboxError(400, 'The id provided does not exist');
    return clone(payment);
  }

  /** The shopper pays the whole order by card: a captured payment, and the order is paid. */
  pay(orderId: string, payer: Payer): { order: SandboxOrder; payment: SandboxPayment } {
    const order = this.openOrder(orderId);
    const payment = this.addPayment(order, payer, {
      status: 'captured',
      captured: true,
      fee: 0,
      tax: 0,
      error_code: null,
      error_description: null,
      error_source: null,
      error_step: null,
      error_reason: null,
    });
    order.attempts += 1;
    order.amount_paid = order.amount;
    order.amount_due = 0;
    order.status = 'paid';
    return { order: clone(order), payment: clone(payment) };
  }

  /** The shopper's payment attempt fails; the order stays open for another attempt. */
  fail(orderId: string, payer: Payer): { order: SandboxOrder; payment: SandboxPayment; failure: PaymentFailure } {
    const order = this.openOrder(orderId);
    const payment = this.addPayment(order, payer, {
      status: 'failed',
      captured: false,
      fee: null,
      tax: null,
      error_code: 'BAD_REQUEST_ERROR',
      error_description: FAILED_DESCRIPTION,
      error_source: 'customer',
      error_step: 'payment_authentication',
      error_reason: 'payment_failed',
    });
    order.attempts += 1;
    order.status = 'attempted';
    const failure: PaymentFailure = {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: FAILED_DESCRIPTION,
        source: 'customer',
        step: 'payment_authentication',
        reason: 'payment_failed',
        metadata: { order_id: order.id, payment_id: payment.id },
      },
    };
    return { order: clone(order), payment: clone(payment), failure };
  }

  private openOrder(orderId: string): SandboxOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new SandboxError(404, 'The id provided does not exist');
    if (order.status === 'paid') throw new SandboxError(400, 'Order has already been paid');
    return order;
  }

  private findOrder(id: string): SandboxOrder {
    const order = this.orders.get(id);
    // Razorpay answers 400 (not 404) for an id it does not know.
    if (!order) throw new SandboxError(400, 'The id provided does not exist');
    return order;
  }

  private addPayment(
    order: SandboxOrder,
    payer: Payer,
    outcome: Pick<
      SandboxPayment,
      | 'status'
      | 'captured'
      | 'fee'
      | 'tax'
      | 'error_code'
      | 'error_description'
      | 'error_source'
      | 'error_step'
      | 'error_reason'
    >,
  ): SandboxPayment {
    const payment: SandboxPayment = {
      id: razorpayId('pay_'),
      entity: 'payment',
      amount: order.amount,
      currency: order.currency,
      order_id: order.id,
      invoice_id: null,
      international: false,
      method: 'card',
      amount_refunded: 0,
      refund_status: null,
      description: null,
      card_id: null,
      bank: null,
      wallet: null,
      vpa: null,
      email: payer.email ?? 'shopper@example.com',
      contact: payer.contact ?? '+919000090000',
      notes: [],
      acquirer_data: {},
      created_at: this.unixNow(),
      ...outcome,
    };
    this.payments.set(payment.id, payment);
    const ids = this.paymentIdsByOrder.get(order.id) ?? [];
    ids.push(payment.id);
    this.paymentIdsByOrder.set(order.id, ids);
    return payment;
  }

  private evictOldest() {
    while (this.orders.size > MAX_ORDERS) {
      const oldest = this.orders.keys().next().value as string;
      this.orders.delete(oldest);
      for (const id of this.paymentIdsByOrder.get(oldest) ?? []) this.payments.delete(id);
      this.paymentIdsByOrder.delete(oldest);
    }
  }

  private unixNow(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}

const clone = <T>(value: T): T => structuredClone(value);
